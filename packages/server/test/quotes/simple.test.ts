import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, OPERATOR_KEY, type TestServer } from '../helpers/server.js';
import { createIntent, key, options, startQuotesServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => { t = await startQuotesServer(); });
afterAll(() => t.close());

const quote = (body: Record<string, unknown>, credential: string = key) => t.request('POST', '/v1/quotes', { key: credential, body });

describe('POST /v1/quotes (simple form)', () => {
  it('receive: 25 USDC cost 250 XLM plus the network fee, as numbers and exact decimals', async () => {
    const res = await quote({ from_currency: 'XLM', to_currency: 'USDC', amount: 25, direction: 'receive' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      object: 'simple_quote', from_currency: 'XLM', to_currency: 'USDC', direction: 'receive', from_amount: 250.00002, to_amount: 25, rate: 0.1, fee: 0.00002,
      from_amount_decimal: '250.0000200', to_amount_decimal: '25.0000000', rate_decimal: '0.1000000', fee_decimal: '0.0000200',
    });
    const lock = Date.parse(res.body.expires_at) - Date.now();
    expect(lock).toBeGreaterThan(25_000);
    expect(lock).toBeLessThanOrEqual(30_000);
    const stored = await t.request('GET', `/v1/quotes/${res.body.quote_id}`, { key });
    expect(stored.body).toMatchObject({ status: 'LOCKED', funding_intent_id: null, type: 'EXACT_OUTPUT', lock_expires_at: res.body.expires_at });
  });

  it('send: exactly 10 USDC buy 100 XLM; the fee of an XLM sender comes off the amount', async () => {
    const usdc = await quote({ from_currency: 'USDC', to_currency: 'XLM', amount: 10, direction: 'send' });
    expect(usdc.body).toMatchObject({ from_amount: 10, to_amount: 100, rate: 10, fee: 0, to_amount_decimal: '100.0000000' });
    const xlm = await quote({ from_currency: 'XLM', to_currency: 'USDC', amount: 0.1234567, direction: 'send' });
    expect(xlm.body).toMatchObject({ from_amount_decimal: '0.1234567', fee_decimal: '0.0000200', to_amount_decimal: '0.0123436' });
  });

  it('converts the JSON number exactly, and refuses more than 7 fraction digits', async () => {
    const tiny = await quote({ from_currency: 'USDC', to_currency: 'XLM', amount: 1e-7, direction: 'send' });
    expect(tiny.status).toBe(201);
    expect(tiny.body.from_amount_decimal).toBe('0.0000001');
    for (const amount of [1.00000001, 1.5e-8]) {
      const res = await quote({ from_currency: 'XLM', to_currency: 'USDC', amount, direction: 'receive' });
      expect(res.status).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'INVALID_AMOUNT', details: [{ path: 'body.amount' }] });
    }
  });

  it('unsupported currency, an amount below the fee, a secret key only', async () => {
    const doge = await quote({ from_currency: 'DOGE', to_currency: 'USDC', amount: 1, direction: 'send' });
    expect(doge.status).toBe(422);
    expect(doge.body.error.code).toBe('UNSUPPORTED_ASSET');
    const dust = await quote({ from_currency: 'XLM', to_currency: 'USDC', amount: 0.00002, direction: 'send' });
    expect(dust.status).toBe(422);
    expect(dust.body.error.code).toBe('INSUFFICIENT_INPUT');
    expect((await quote({ from_currency: 'XLM', to_currency: 'USDC', amount: 1, direction: 'send' }, KEYS.alphaPublishableTest)).status).toBe(401);
  });

  it('lists quotes newest first, 20 per page by default', async () => {
    for (let i = 0; i < 21; i++) await quote({ from_currency: 'XLM', to_currency: 'USDC', amount: 1 + i, direction: 'receive' });
    const page = await t.request('GET', '/v1/quotes', { key });
    expect(page.body.data).toHaveLength(20);
    expect(page.body.next_cursor).not.toBeNull();
    expect(page.body.data[0].destination.amount).toBe('21.0000000');
  });
});

describe('path finding unreachable', () => {
  it('answers 503 route_unavailable (retryable), never a 500', async () => {
    const network = t.server.services.pipeline.pipeline.stellar!.network;
    const original = network.findStrictReceivePaths;
    network.findStrictReceivePaths = async () => { throw new Error('horizon is down'); };
    try {
      const intent = await createIntent(t);
      const res = await options(t, intent.id);
      expect(res.status).toBe(503);
      expect(res.body.error).toMatchObject({ code: 'route_unavailable', retryable: true });
      const simple = await quote({ from_currency: 'XLM', to_currency: 'USDC', amount: 1, direction: 'receive' });
      expect(simple.status).toBe(503);
      expect(simple.body.error).toMatchObject({ code: 'ROUTE_UNAVAILABLE', retryable: true });
    } finally {
      network.findStrictReceivePaths = original;
    }
  });
});

describe('NO_ROUTE_AVAILABLE', () => {
  let thin: TestServer;
  // a rate table without EURC: nothing converts into or out of it
  beforeAll(async () => { thin = await startQuotesServer({ FUNDKIT_SANDBOX_RATES: 'XLM/USDC=0.1' }); });
  afterAll(() => thin.close());

  it('the simple form finds no path', async () => {
    const res = await thin.request('POST', '/v1/quotes', { key, body: { from_currency: 'XLM', to_currency: 'EURC', amount: 5, direction: 'receive' } });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('NO_ROUTE_AVAILABLE');
  });

  it('options list only what reaches the destination, and 422 when nothing does', async () => {
    const intent = await createIntent(thin, { asset: 'EURC' });
    const only = await options(thin, intent.id);
    expect(only.body.options.map((o: any) => o.source.asset)).toEqual(['EURC']);
    await thin.request('PATCH', '/v1/platform/assets/EURC', { key: OPERATOR_KEY, body: { enabled: false } });
    const none = await options(thin, intent.id);
    expect(none.status).toBe(422);
    expect(none.body.error).toMatchObject({ code: 'no_route_available', retryable: false });
  });
});
