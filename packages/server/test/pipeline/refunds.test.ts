import { run } from '../helpers/raw-sql.js';
import { Horizon } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, type TestServer } from '../helpers/server.js';
import { createIntent, eventTypes, history, key, pay, startPipelineServer, waitFor, waitForIntent } from './helpers.js';

let t: TestServer;
beforeAll(async () => { t = await startPipelineServer(); });
afterAll(() => t.close());

const refundsPath = (intentId: string, paymentId: string) => `/v1/funding-intents/${intentId}/payments/${paymentId}/refunds`;
const refund = (intentId: string, paymentId: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.request('POST', refundsPath(intentId, paymentId), { key, body, headers });
const getRefund = async (id: string) => (await t.request('GET', `/v1/refunds/${id}`, { key })).body;
const workers = () => t.server.services.workers;

async function paidIntent(amount: string, asset = 'USDC', until = 'CREDITED') {
  const intent = await createIntent(t);
  await pay(t, intent.id, amount, asset);
  await waitForIntent(t, intent.id, (i) => i.status === until);
  const list = (await t.request('GET', `/v1/funding-intents/${intent.id}/payments`, { key })).body.data;
  return { intent, payment: list[0] };
}

describe('createRefund', () => {
  it('pays back an overpayment surplus from the deposit account; the CREDITED intent stays CREDITED', async () => {
    const { intent, payment } = await paidIntent('30');
    const res = await refund(intent.id, payment.id, { reason: 'OVERPAYMENT', destination_memo: { type: 'text', value: 'order 1042' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ object: 'refund', status: 'PENDING', amount: '5.0000000', asset: 'USDC', reason: 'OVERPAYMENT',
      destination: { network: 'stellar', asset: 'USDC', address: payment.payer_address, memo: { type: 'text', value: 'order 1042' } }, transaction_hash: null, completed_at: null });
    const done = await waitFor(() => getRefund(res.body.id), (r) => r.status === 'COMPLETED');
    expect(done.transaction_hash).toMatch(/^[0-9a-f]{64}$/);
    const horizon = new Horizon.Server(`${t.url}/sandbox/horizon`, { allowHttp: true });
    const tx = await horizon.transactions().transaction(done.transaction_hash).call();
    expect(tx).toMatchObject({ memo_type: 'text', memo: 'order 1042', successful: true });
    expect((await t.request('GET', `/v1/funding-intents/${intent.id}`, { key })).body.status).toBe('CREDITED');
    expect((await eventTypes(t, intent.id)).slice(-2)).toEqual(['refund.created', 'refund.completed']);
    const again = await refund(intent.id, payment.id, { reason: 'OVERPAYMENT' });
    expect(again.status).toBe(409);
  });

  it('refunds a wrong-asset payment in its own asset; then it is refunded in full (422)', async () => {
    const intent = await createIntent(t);
    await pay(t, intent.id, '7', 'FAKE');
    const [payment] = await waitFor(async () => (await t.request('GET', `/v1/funding-intents/${intent.id}/payments`, { key })).body.data, (l: any[]) => l.length === 1);
    const res = await refund(intent.id, payment.id, { reason: 'WRONG_ASSET' });
    expect(res.body.amount).toBe('7.0000000');
    await waitFor(() => getRefund(res.body.id), (r) => r.status === 'COMPLETED');
    const full = await refund(intent.id, payment.id, { reason: 'WRONG_ASSET' });
    expect(full.status).toBe(422);
    expect((await t.request('GET', `/v1/payments/${payment.id}`, { key })).body.refundable_amount).toBe('0.0000000');
    expect((await t.request('GET', `/v1/funding-intents/${intent.id}`, { key })).body.status).toBe('AWAITING_PAYMENT');
  });

  it('returns the whole received value of an expired intent: REFUND_PENDING → REFUNDED (UNDERPAYMENT)', async () => {
    const { intent, payment } = await paidIntent('10', 'USDC', 'PARTIALLY_FUNDED');
    await t.request('POST', `/v1/test_helpers/funding-intents/${intent.id}/expire`, { key });
    const res = await refund(intent.id, payment.id, { reason: 'UNDERPAYMENT' });
    expect(res.body.amount).toBe('10.0000000');
    await waitForIntent(t, intent.id, (i) => i.status === 'REFUNDED');
    expect((await history(t, intent.id)).slice(-3)).toEqual(['EXPIRED', 'REFUND_PENDING', 'REFUNDED']);
  });

  it('409 while another refund of the payment is in progress', async () => {
    const { intent, payment } = await paidIntent('40');
    await workers().stop();
    try {
      expect((await refund(intent.id, payment.id, { reason: 'OVERPAYMENT' })).status).toBe(201);
      const second = await refund(intent.id, payment.id, { reason: 'OVERPAYMENT' });
      expect(second.status).toBe(409);
      expect(second.body.error.code).toBe('CONFLICT');
    } finally {
      workers().start();
    }
  });

  it('a settled payment: only MANUAL, from the ledger balance (journal REFUND), then 422', async () => {
    const { intent, payment } = await paidIntent('25');
    const plain = await refund(intent.id, payment.id, { reason: 'DUPLICATE_PAYMENT' });
    expect(plain.status).toBe(409);
    const before = (await t.request('GET', '/v1/ledger/balances', { key })).body.data.find((b: any) => b.asset === 'USDC').available;
    const manual = await refund(intent.id, payment.id, { reason: 'MANUAL' });
    expect(manual.status).toBe(201);
    expect(manual.body.amount).toBe('25.0000000');
    await waitFor(() => getRefund(manual.body.id), (r) => r.status === 'COMPLETED');
    const after = (await t.request('GET', '/v1/ledger/balances', { key })).body.data.find((b: any) => b.asset === 'USDC').available;
    expect(Number(before) - Number(after)).toBe(25);
    const entries = (await t.request('GET', `/v1/ledger/entries?funding_intent_id=${intent.id}`, { key })).body.data;
    expect(entries.filter((e: any) => e.type === 'REFUND').map((e: any) => `${e.account}:${e.direction}`).sort()).toEqual(['APPLICATION_BALANCE:DEBIT', 'REFUND_CLEARING:CREDIT']);
    expect((await refund(intent.id, payment.id, { reason: 'MANUAL' })).status).toBe(422);
  });

  it('409 for MANUAL when the ledger balance is short', async () => {
    const { intent, payment } = await paidIntent('25');
    const caller = { applicationId: intent.application_id, environment: 'test' as const };
    const available = await t.server.services.pipeline.ledger.available(caller, 'USDC');
    // a MANUAL refund journal straight into the ledger (as if paid out elsewhere) empties the balance
    await run(t.server.sql, `INSERT INTO ledger_entries (id, application_id, environment, journal_id, account, direction, type, asset, amount, description, created_at)
      VALUES ('le_t1', ?, 'test', 'jnl_t', 'APPLICATION_BALANCE', 'DEBIT', 'ADJUSTMENT', 'USDC', ?, 'test drain', ?), ('le_t2', ?, 'test', 'jnl_t', 'FEES', 'CREDIT', 'ADJUSTMENT', 'USDC', ?, 'test drain', ?)`,
    intent.application_id, available, new Date().toISOString(), intent.application_id, available, new Date().toISOString());
    const short = await refund(intent.id, payment.id, { reason: 'MANUAL' });
    expect(short.status).toBe(409);
    expect(short.body.error.message).toMatch(/short/);
  });

  it('answers 401, 404, bad memos and destinations with the right envelope, and replays an Idempotency-Key', async () => {
    const { intent, payment } = await paidIntent('26');
    expect((await t.request('POST', refundsPath(intent.id, payment.id), { body: { reason: 'OVERPAYMENT' } })).status).toBe(401);
    expect((await refund('fi_unknown', payment.id, { reason: 'OVERPAYMENT' })).status).toBe(404);
    expect((await refund(intent.id, 'pay_unknown', { reason: 'OVERPAYMENT' })).status).toBe(404);
    expect((await t.request('POST', refundsPath(intent.id, payment.id), { key: KEYS.betaSecretTest, body: { reason: 'OVERPAYMENT' } })).status).toBe(404);
    expect((await refund(intent.id, payment.id, { reason: 'NOPE' })).status).toBe(400);
    expect((await refund(intent.id, payment.id, { reason: 'OVERPAYMENT', destination_memo: { type: 'text', value: '' } })).status).toBe(400);
    expect((await refund(intent.id, payment.id, { reason: 'OVERPAYMENT', destination_memo: { type: 'text', value: 'é'.repeat(15) } })).body.error.code).toBe('VALIDATION_ERROR');
    expect((await refund(intent.id, payment.id, { reason: 'OVERPAYMENT', destination_memo: { type: 'id', value: '18446744073709551616' } })).status).toBe(400);
    expect((await refund(intent.id, payment.id, { reason: 'OVERPAYMENT', destination_memo: { type: 'id', value: '123456789012345678901' } })).status).toBe(400);
    expect((await refund(intent.id, payment.id, { reason: 'OVERPAYMENT', destination_memo: { type: 'hash', value: 'ab' } })).status).toBe(400);
    const bad = await refund(intent.id, payment.id, { reason: 'OVERPAYMENT', destination_address: 'GNOTANADDRESS' });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe('INVALID_DESTINATION');
    const body = { reason: 'OVERPAYMENT', destination_memo: { type: 'hash', value: 'a'.repeat(64) } };
    const first = await refund(intent.id, payment.id, body, { 'Idempotency-Key': 'refund-once-1' });
    const replay = await refund(intent.id, payment.id, body, { 'Idempotency-Key': 'refund-once-1' });
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.body.id).toBe(first.body.id);
  });

  it('lists refunds per payment and per application', async () => {
    const { intent, payment } = await paidIntent('27');
    const created = (await refund(intent.id, payment.id, { reason: 'OVERPAYMENT' })).body;
    const perPayment = await t.request('GET', refundsPath(intent.id, payment.id), { key });
    expect(perPayment.body.data.map((r: any) => r.id)).toEqual([created.id]);
    const all = await t.request('GET', `/v1/refunds?payment_id=${payment.id}`, { key });
    expect(all.body.data).toHaveLength(1);
    expect((await t.request('GET', `/v1/refunds/${created.id}`, { key: KEYS.betaSecretTest })).status).toBe(404);
  });
});
