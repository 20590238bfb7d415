/**
 * DESIGN §4: an underpayment is refundable at once (reason UNDERPAYMENT), without waiting for
 * expiry; refunding all that a PARTIALLY_FUNDED intent received moves it PARTIALLY_FUNDED →
 * REFUND_PENDING → REFUNDED, and later payments are recorded, not applied, and refundable.
 */
import { Horizon } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainAt, checkInvariants } from '../crash/invariants.js';
import type { TestServer } from '../helpers/server.js';
import { accept, execution, optionFor } from '../quotes/helpers.js';
import { createIntent, eventTypes, history, key, pay, startPipelineServer, waitFor, waitForIntent } from './helpers.js';

let t: TestServer;
beforeAll(async () => { t = await startPipelineServer(); });
afterAll(() => t.close());

const workers = () => t.server.services.workers;
const refundsPath = (intentId: string, paymentId: string) => `/v1/funding-intents/${intentId}/payments/${paymentId}/refunds`;
const refund = (intentId: string, paymentId: string, reason = 'UNDERPAYMENT') => t.request('POST', refundsPath(intentId, paymentId), { key, body: { reason } });
const getIntent = async (id: string) => (await t.request('GET', `/v1/funding-intents/${id}`, { key })).body;
const getPayment = async (id: string) => (await t.request('GET', `/v1/payments/${id}`, { key })).body;
const getRefund = async (id: string) => (await t.request('GET', `/v1/refunds/${id}`, { key })).body;
const paymentsOf = async (intentId: string) => (await t.request('GET', `/v1/funding-intents/${intentId}/payments`, { key })).body.data as any[];

/** The intent's payments once `count` of them are CONFIRMED or UNAPPLIED (oldest first). */
async function settledPayments(intentId: string, count: number): Promise<any[]> {
  const list = await waitFor(() => paymentsOf(intentId), (l) => l.filter((p) => p.status !== 'DETECTED').length >= count);
  return [...list].reverse();
}

async function underpaid(requirement: string, paid: string) {
  const intent = await createIntent(t, { amount: requirement });
  await pay(t, intent.id, paid);
  await waitForIntent(t, intent.id, (i) => i.status === 'PARTIALLY_FUNDED');
  const [payment] = await settledPayments(intent.id, 1);
  return { intent, payment };
}

describe('refunding an underpayment (PARTIALLY_FUNDED)', () => {
  it('is refundable at once: PARTIALLY_FUNDED → REFUND_PENDING → REFUNDED, paid back to the payer', async () => {
    const { intent, payment } = await underpaid('10', '4');
    expect(payment.refundable_amount).toBe('4.0000000');

    const res = await refund(intent.id, payment.id);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ reason: 'UNDERPAYMENT', amount: '4.0000000', status: 'PENDING', destination: { address: payment.payer_address } });
    const done = await waitFor(() => getRefund(res.body.id), (r) => r.status === 'COMPLETED');
    const final = await waitForIntent(t, intent.id, (i) => i.status === 'REFUNDED');
    expect(final.received_amount).toBe('4.0000000');
    expect((await history(t, intent.id)).slice(-3)).toEqual(['PARTIALLY_FUNDED', 'REFUND_PENDING', 'REFUNDED']);
    // no payment.* event for REFUND_PENDING/REFUNDED (DESIGN §8), as on the expiry path
    expect(await eventTypes(t, intent.id)).toEqual(['payment.pending', 'refund.created', 'refund.completed']);

    const horizon = new Horizon.Server(`${t.url}/sandbox/horizon`, { allowHttp: true });
    const tx = await horizon.transactions().transaction(done.transaction_hash).call();
    expect(tx.successful).toBe(true);
    expect((await getPayment(payment.id)).refundable_amount).toBe('0.0000000');

    const again = await refund(intent.id, payment.id);
    expect(again.status).toBe(422);
    expect(again.body.error.requestId).toMatch(/^req_/);
  });

  it('a payment after REFUNDED is recorded, not applied, and refundable (EXPIRED_INTENT)', async () => {
    const { intent, payment } = await underpaid('10', '3');
    await refund(intent.id, payment.id);
    await waitForIntent(t, intent.id, (i) => i.status === 'REFUNDED');

    await pay(t, intent.id, '10');
    const [, late] = await settledPayments(intent.id, 2);
    expect(late).toMatchObject({ status: 'UNAPPLIED', amount: '10.0000000', refundable_amount: '10.0000000', failure: { code: 'EXPIRED_INTENT' } });
    const after = await getIntent(intent.id);
    expect(after).toMatchObject({ status: 'REFUNDED', received_amount: '3.0000000' });

    const back = await refund(intent.id, late.id, 'EXPIRED_INTENT');
    expect(back.status).toBe(201);
    expect(back.body.amount).toBe('10.0000000');
    await waitFor(() => getRefund(back.body.id), (r) => r.status === 'COMPLETED');
    expect((await getIntent(intent.id)).status).toBe('REFUNDED');
    expect((await history(t, intent.id)).at(-1)).toBe('REFUNDED');
  });

  it('a payment while REFUND_PENDING is not applied either; 409 only while a refund of the payment is in progress', async () => {
    const { intent, payment } = await underpaid('10', '5');
    await workers().stop();
    let refundId: string;
    try {
      const res = await refund(intent.id, payment.id);
      expect(res.status).toBe(201);
      refundId = res.body.id;
      expect((await getIntent(intent.id)).status).toBe('REFUND_PENDING');
      const busy = await refund(intent.id, payment.id);
      expect(busy.status).toBe(409);
      expect(busy.body.error).toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/in progress/) });
    } finally {
      workers().start();
    }
    await pay(t, intent.id, '10');
    const [, late] = await settledPayments(intent.id, 2);
    expect(late).toMatchObject({ status: 'UNAPPLIED', failure: { code: 'EXPIRED_INTENT' }, refundable_amount: '10.0000000' });
    await waitFor(() => getRefund(refundId), (r) => r.status === 'COMPLETED');
    const final = await waitForIntent(t, intent.id, (i) => i.status === 'REFUNDED');
    expect(final.received_amount).toBe('5.0000000');
    expect(await history(t, intent.id)).not.toContain('PAYMENT_DETECTED');
    expect((await refund(intent.id, late.id, 'EXPIRED_INTENT')).status).toBe(201);
  });

  it('refunding one of two underpayments keeps the intent open without it; it can still be paid in full', async () => {
    const intent = await createIntent(t, { amount: '10' });
    await pay(t, intent.id, '3');
    await waitForIntent(t, intent.id, (i) => i.status === 'PARTIALLY_FUNDED');
    await pay(t, intent.id, '4');
    await waitForIntent(t, intent.id, (i) => i.received_amount === '7.0000000');
    const [first, second] = await settledPayments(intent.id, 2);
    expect(second.amount).toBe('4.0000000');

    // the later one goes back: the intent's payment is the one that still counts
    const res = await refund(intent.id, second.id);
    expect(res.status).toBe(201);
    expect(res.body.amount).toBe('4.0000000');
    const open = await getIntent(intent.id);
    expect(open).toMatchObject({ status: 'PARTIALLY_FUNDED', received_amount: '3.0000000', payment: { id: first.id } });
    expect((await getPayment(first.id)).refundable_amount).toBe('3.0000000');

    // the remaining 7 completes it: settled from what the deposit account really holds
    await pay(t, intent.id, '7');
    const credited = await waitForIntent(t, intent.id, (i) => i.status === 'CREDITED', 10_000);
    expect(credited.received_amount).toBe('10.0000000');
    expect(credited.settlement.destination.amount).toBe('10.0000000');
    await waitFor(() => getRefund(res.body.id), (r) => r.status === 'COMPLETED');
    expect((await getPayment(second.id)).refundable_amount).toBe('0.0000000');
    expect(await history(t, intent.id)).not.toContain('REFUND_PENDING');
  });

  it('refunding every underpayment, one by one, returns the intent in full', async () => {
    const intent = await createIntent(t, { amount: '10' });
    await pay(t, intent.id, '2');
    await waitForIntent(t, intent.id, (i) => i.status === 'PARTIALLY_FUNDED');
    await pay(t, intent.id, '5');
    await waitForIntent(t, intent.id, (i) => i.received_amount === '7.0000000');
    const [first, second] = await settledPayments(intent.id, 2);
    const one = await refund(intent.id, first.id);
    expect((await getIntent(intent.id)).status).toBe('PARTIALLY_FUNDED');
    const two = await refund(intent.id, second.id);
    expect(two.status).toBe(201);
    expect(['REFUND_PENDING', 'REFUNDED']).toContain((await getIntent(intent.id)).status);
    await waitFor(() => getRefund(one.body.id), (r) => r.status === 'COMPLETED');
    await waitFor(() => getRefund(two.body.id), (r) => r.status === 'COMPLETED');
    const final = await waitForIntent(t, intent.id, (i) => i.status === 'REFUNDED');
    expect(final.received_amount).toBe('5.0000000');
    expect((await history(t, intent.id)).slice(-4)).toEqual(['PARTIALLY_FUNDED', 'PARTIALLY_FUNDED', 'REFUND_PENDING', 'REFUNDED']);
  });

  it('an underpaid quote (XLM): the XLM goes back and the waiting conversion ends, never to run', async () => {
    const intent = await createIntent(t, { amount: '10' });
    const xlm = await optionFor(t, intent.id, 'XLM');
    expect((await accept(t, xlm.id)).status).toBe(200);
    await pay(t, intent.id, '1', 'XLM');
    await waitForIntent(t, intent.id, (i) => i.status === 'PARTIALLY_FUNDED');
    const [payment] = await settledPayments(intent.id, 1);
    const res = await refund(intent.id, payment.id);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ asset: 'XLM', amount: '1.0000000' });
    await waitForIntent(t, intent.id, (i) => i.status === 'REFUNDED');
    const ended = await execution(t, intent.id, (e) => e.status !== 'PENDING');
    expect(ended).toMatchObject({ status: 'FAILED', failure: { code: 'refunded', message: expect.stringMatching(/underpayment/) } });
  });

  it('leaves the books consistent: every payout on chain is one completed refund or settlement, received = applied payments', async () => {
    expect(await checkInvariants(t.server.sql, chainAt(`${t.url}/sandbox/horizon`))).toEqual([]);
  });
});
