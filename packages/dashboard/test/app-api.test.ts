import { describe, expect, it } from 'vitest';
import { Api } from '../src/api.js';
import { AppApi } from '../src/app-api.js';
import { transactionUrl } from '../src/explorer.js';
import { parseRoute } from '../src/router.js';

function recorder() {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetcher = async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    return new Response(JSON.stringify({ object: 'list', data: [], next_cursor: null }), { status: 200 });
  };
  return { calls, fetcher: fetcher as typeof fetch };
}

describe('app-api.ts', () => {
  it('names the application and the mode on every call, beside the session', async () => {
    const { calls, fetcher } = recorder();
    const app = new AppApi(new Api('http://api', 'acs_abc', fetcher), 'app_1', 'live');
    await app.listIntents({ status: 'CREDITED', reference: '', cursor: 'c1' });
    const headers = calls[0]!.init.headers as Record<string, string>;
    expect(headers).toMatchObject({ authorization: 'Bearer acs_abc', 'fundkit-application': 'app_1', 'fundkit-environment': 'live' });
    // empty filters are left out of the query
    expect(calls[0]!.url).toBe('http://api/v1/funding-intents?limit=20&status=CREDITED&cursor=c1');
  });

  it('the application-free calls (applications, keys) send no application header', async () => {
    const { calls, fetcher } = recorder();
    await new Api('http://api', 'acs_abc', fetcher).listApplications();
    expect(calls[0]!.init.headers).not.toHaveProperty('fundkit-application');
  });

  it('refunds with the reason and only a given destination', async () => {
    const { calls, fetcher } = recorder();
    await new AppApi(new Api('http://api', 'acs_abc', fetcher), 'app_1', 'test').refund('fi_1', 'pay_1', { reason: 'MANUAL' });
    expect(calls[0]!.url).toBe('http://api/v1/funding-intents/fi_1/payments/pay_1/refunds');
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({ reason: 'MANUAL' });
  });
});

describe('routes and explorer links', () => {
  it('parses hash routes, the intents list by default', () => {
    expect(parseRoute('')).toMatchObject({ page: 'intents', id: null });
    expect(parseRoute('#/intent/fi_1')).toMatchObject({ page: 'intent', id: 'fi_1' });
    expect(parseRoute('#/verify?token=emv_1').params.get('token')).toBe('emv_1');
  });

  it('links the sandbox to its own Horizon, the public networks to stellar.expert', () => {
    const hash = 'a'.repeat(64);
    expect(transactionUrl('sandbox', hash)).toBe(`${location.origin}/sandbox/horizon/transactions/${hash}`);
    expect(transactionUrl('testnet', hash)).toBe(`https://stellar.expert/explorer/testnet/tx/${hash}`);
    expect(transactionUrl('pubnet', hash)).toBe(`https://stellar.expert/explorer/public/tx/${hash}`);
  });
});

describe('verify-form tokenOf', () => {
  it('finds the token in the printed API link, the dashboard link, or takes the token as it is', async () => {
    const { tokenOf } = await import('../src/sign-up/verify-form.js');
    expect(tokenOf('http://localhost:4010/v1/auth/verify-email?token=emv_a1')).toBe('emv_a1');
    expect(tokenOf('http://localhost:4010/dashboard/#/verify?token=emv_b2')).toBe('emv_b2');
    expect(tokenOf('  emv_c3 ')).toBe('emv_c3');
  });
});
