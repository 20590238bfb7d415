import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { accept, book, createIntent, execution, history, key, optionFor, pay, startQuotesServer, waitForIntent } from './helpers.js';

let t: TestServer;
beforeAll(async () => { t = await startQuotesServer(); });
afterAll(() => t.close());

/** An intent paid in XLM through an accepted quote, with the market moved by `move` before the payment. */
async function paidInXlm(move: () => Promise<unknown>) {
  const intent = await createIntent(t);
  const xlm = await optionFor(t, intent.id, 'XLM');
  expect((await accept(t, xlm.id)).status).toBe(200);
  await move();
  await pay(t, intent.id, xlm.pay_amount.amount, 'XLM');
  return intent;
}

const post = (path: string) => t.request('POST', path, { key });

describe('route executions that fail or pause', () => {
  it('too few offers → FAILED; refilled book + retry → SUCCEEDED and CREDITED', async () => {
    const offers = await book(t).usdcForXlm();
    const intent = await paidInXlm(() => book(t).drainUsdcForXlm());
    const failed = await execution(t, intent.id, (e) => e.status === 'FAILED');
    expect(failed).toMatchObject({ phase: 'PRICING', failure: { code: 'op_too_few_offers' } });
    const routing = (await t.request('GET', `/v1/funding-intents/${intent.id}`, { key })).body;
    expect(routing).toMatchObject({ status: 'ROUTING', quote: { status: 'FAILED', failure: { code: 'op_too_few_offers' } } });
    const notPaused = await post(`/v1/route-executions/${failed.id}/resume`);
    expect(notPaused.status).toBe(409);
    expect(notPaused.body.error.code).toBe('EXECUTION_NOT_RESUMABLE');

    await book(t).refill(offers);
    const retried = await post(`/v1/route-executions/${failed.id}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ status: 'PENDING', phase: 'PRICING', failure: null });
    const done = await waitForIntent(t, intent.id, (i) => i.status === 'CREDITED');
    expect(done.quote).toMatchObject({ status: 'EXECUTED', execution: { status: 'SUCCEEDED', phase: 'COMPLETED' } });
    expect(done.quote.execution.transaction_hashes).toHaveLength(2);
    expect(done.settlement.destination.amount).toBe('25.0000000');
    const again = await post(`/v1/route-executions/${failed.id}/retry`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('EXECUTION_NOT_FAILED');
  });

  it('a price beyond the slippage → PAUSED (op_over_source_max); price back + resume → CREDITED', async () => {
    // 11 XLM per USDC instead of 10: 275 XLM needed, the payer sent 251.26
    const intent = await paidInXlm(() => book(t).setUsdcPrice(11, 1));
    const paused = await execution(t, intent.id, (e) => e.status === 'PAUSED');
    expect(paused.failure.code).toBe('op_over_source_max');
    expect((await t.request('GET', `/v1/funding-intents/${intent.id}`, { key })).body.status).toBe('ROUTING');
    const notFailed = await post(`/v1/route-executions/${paused.id}/retry`);
    expect(notFailed.body.error.code).toBe('EXECUTION_NOT_FAILED');

    await book(t).setUsdcPrice(10, 1);
    const resumed = await post(`/v1/route-executions/${paused.id}/resume`);
    expect(resumed.body).toMatchObject({ status: 'RUNNING', failure: null });
    const done = await waitForIntent(t, intent.id, (i) => i.status === 'CREDITED');
    expect(done.settlement.destination.amount).toBe('25.0000000');
    expect(await history(t, intent.id)).toContain('ROUTING');
  });

  it('unknown and foreign executions are 404', async () => {
    expect((await t.request('GET', '/v1/route-executions/rex_nope', { key })).status).toBe(404);
  });
});
