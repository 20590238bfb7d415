/**
 * Money never gets stuck in ROUTING: a conversion that FAILED or PAUSED can be given up by a
 * refund, which pays the payer back in the asset they sent (XLM); a conversion in progress cannot.
 */
import { Horizon } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { eventTypes } from '../pipeline/helpers.js';
import { accept, book, createIntent, execution, history, key, optionFor, pay, startQuotesServer, waitFor, waitForIntent } from './helpers.js';

let t: TestServer;
beforeAll(async () => { t = await startQuotesServer(); });
afterAll(() => t.close());

const post = (path: string, body?: Record<string, unknown>) => t.request('POST', path, { key, ...(body ? { body } : {}) });
const getIntent = async (id: string) => (await t.request('GET', `/v1/funding-intents/${id}`, { key })).body;
const refund = (intentId: string, paymentId: string, reason: string) => post(`/v1/funding-intents/${intentId}/payments/${paymentId}/refunds`, { reason });
const workers = () => t.server.services.workers;

/** The payer's native balance in stroops, read from the sandbox ledger through Horizon. */
async function xlmOf(address: string): Promise<bigint> {
  const account = await new Horizon.Server(`${t.url}/sandbox/horizon`, { allowHttp: true }).loadAccount(address);
  const [whole, frac = ''] = account.balances.find((b: any) => b.asset_type === 'native')!.balance.split('.');
  return BigInt(whole!) * 10_000_000n + BigInt(frac.padEnd(7, '0'));
}

/** An intent paid in XLM through an accepted quote, the market moved by `move` first; returns its stalled execution. */
async function stalled(move: () => Promise<unknown>, status: 'FAILED' | 'PAUSED') {
  const intent = await createIntent(t);
  const xlm = await optionFor(t, intent.id, 'XLM');
  expect((await accept(t, xlm.id)).status).toBe(200);
  await move();
  await pay(t, intent.id, xlm.pay_amount.amount, 'XLM');
  const stuck = await execution(t, intent.id, (e) => e.status === status);
  const [payment] = (await t.request('GET', `/v1/funding-intents/${intent.id}/payments`, { key })).body.data;
  expect((await getIntent(intent.id)).status).toBe('ROUTING');
  return { intent, payment, stuck };
}

/** Refund the stalled payment; the XLM goes back to the payer and the intent ends REFUNDED. */
async function refundsInFull(intentId: string, payment: { id: string; amount: string; payer_address: string }, reason: string) {
  const before = await xlmOf(payment.payer_address);
  const res = await refund(intentId, payment.id, reason);
  expect(res.status).toBe(201);
  expect(res.body).toMatchObject({ asset: 'XLM', amount: payment.amount, reason, status: 'PENDING', destination: { address: payment.payer_address } });
  const done = await waitFor(async () => (await t.request('GET', `/v1/refunds/${res.body.id}`, { key })).body, (r) => r.status === 'COMPLETED');
  expect(done.transaction_hash).toMatch(/^[0-9a-f]{64}$/);
  const back = BigInt(payment.amount.replace('.', ''));
  expect(await xlmOf(payment.payer_address)).toBe(before + back);
  await waitForIntent(t, intentId, (i) => i.status === 'REFUNDED');
  expect((await history(t, intentId)).slice(-4)).toEqual(['ROUTING', 'FAILED', 'REFUND_PENDING', 'REFUNDED']);
  expect(await eventTypes(t, intentId)).toEqual(expect.arrayContaining(['payment.failed', 'refund.created', 'refund.completed']));
}

describe('refunding a payment whose conversion stalled', () => {
  it('FAILED (too few offers) → refund MANUAL in XLM → REFUNDED; retry and resume are refused', async () => {
    const offers = await book(t).usdcForXlm();
    const { intent, payment, stuck } = await stalled(() => book(t).drainUsdcForXlm(), 'FAILED');
    try {
      await refundsInFull(intent.id, payment, 'MANUAL');
    } finally {
      await book(t).refill(offers);
    }
    const closed = (await t.request('GET', `/v1/route-executions/${stuck.id}`, { key })).body;
    expect(closed).toMatchObject({ status: 'FAILED', failure: { code: 'refunded' } });
    expect(closed.failure.message).toContain('op_too_few_offers');
    const retry = await post(`/v1/route-executions/${stuck.id}/retry`);
    expect(retry.status).toBe(409);
    expect(retry.body.error.code).toBe('EXECUTION_NOT_FAILED');
    const resume = await post(`/v1/route-executions/${stuck.id}/resume`);
    expect(resume.body.error.code).toBe('EXECUTION_NOT_RESUMABLE');
    expect((await getIntent(intent.id)).quote).toMatchObject({ status: 'FAILED', failure: { code: 'refunded' } });
    // refunded in full: nothing is left to return
    expect((await refund(intent.id, payment.id, 'MANUAL')).status).toBe(422);
  });

  it('PAUSED (price beyond slippage) → refund SETTLEMENT_FAILED → REFUNDED; resume is refused', async () => {
    const { intent, payment, stuck } = await stalled(() => book(t).setUsdcPrice(11, 1), 'PAUSED');
    try {
      // any other reason refunds only an overpayment's surplus, and there is none
      const overpayment = await refund(intent.id, payment.id, 'OVERPAYMENT');
      expect(overpayment.status).toBe(409);
      expect(overpayment.body.error.message).toContain('SETTLEMENT_FAILED or MANUAL');
      await refundsInFull(intent.id, payment, 'SETTLEMENT_FAILED');
    } finally {
      await book(t).setUsdcPrice(10, 1);
    }
    const resume = await post(`/v1/route-executions/${stuck.id}/resume`);
    expect(resume.status).toBe(409);
    expect(resume.body.error.code).toBe('EXECUTION_NOT_RESUMABLE');
    expect((await t.request('GET', `/v1/route-executions/${stuck.id}`, { key })).body.status).toBe('FAILED');
    expect((await getIntent(intent.id)).status).toBe('REFUNDED');
  });

  it('409 while a retried conversion is PENDING; refundable again once it fails', async () => {
    const offers = await book(t).usdcForXlm();
    try {
      const { intent, payment, stuck } = await stalled(() => book(t).drainUsdcForXlm(), 'FAILED');
      // with the workers stopped a retried execution stays PENDING
      await workers().stop();
      try {
        expect((await post(`/v1/route-executions/${stuck.id}/retry`)).body.status).toBe('PENDING');
        const pending = await refund(intent.id, payment.id, 'MANUAL');
        expect(pending.status).toBe(409);
        expect(pending.body.error).toMatchObject({ code: 'CONFLICT' });
        expect(pending.body.error.message).toContain('in progress');
      } finally {
        workers().start();
      }
      const failedAgain = await execution(t, intent.id, (e) => e.status === 'FAILED');
      expect(failedAgain.failure.code).toBe('op_too_few_offers');
      await refundsInFull(intent.id, payment, 'MANUAL');
    } finally {
      await book(t).refill(offers);
    }
  });

  it('409 while a resumed conversion is RUNNING', async () => {
    const { intent, payment, stuck } = await stalled(() => book(t).setUsdcPrice(11, 1), 'PAUSED');
    // with the workers stopped a resumed execution stays RUNNING
    await workers().stop();
    try {
      expect((await post(`/v1/route-executions/${stuck.id}/resume`)).body.status).toBe('RUNNING');
      const running = await refund(intent.id, payment.id, 'MANUAL');
      expect(running.status).toBe(409);
      expect(running.body.error.code).toBe('CONFLICT');
      expect((await getIntent(intent.id)).status).toBe('ROUTING');
    } finally {
      await book(t).setUsdcPrice(10, 1);
      workers().start();
    }
    // the price is back: the resumed conversion completes as usual
    await waitForIntent(t, intent.id, (i) => i.status === 'CREDITED');
  });
});
