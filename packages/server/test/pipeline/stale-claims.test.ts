/**
 * A process that stalled past its instance timeout loses the pipeline, but may still hold a copy
 * of a settlement or refund it claimed before; meanwhile the new holder finished it. Running that
 * copy must change nothing: no status going back, no second event, no second payment.
 */
import { chainAt } from '../crash/invariants.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { value } from '../helpers/raw-sql.js';
import { createIntent, eventTypes, key, pay, startPipelineServer, waitFor, waitForIntent } from './helpers.js';

let t: TestServer;
beforeAll(async () => { t = await startPipelineServer(); });
afterAll(() => t.close());

const pipeline = () => t.server.services.pipeline.pipeline;
/** Payments that left `address` on the ledger. */
const paidFrom = async (address: string) => (await chainAt(`${t.url}/sandbox/horizon`, { includeFailed: true })(address))
  .filter((r) => r.type === 'payment' && r.from === address).length;

describe('a stale claimed copy, run after another process finished it', () => {
  it('of a settlement: it stays CONFIRMED, with one payout.initiated and one credit', async () => {
    const intent = await createIntent(t);
    await pay(t, intent.id, '25');
    const done = await waitForIntent(t, intent.id, (i) => i.status === 'CREDITED');
    const confirmed = (await pipeline().repos.settlements.findById(done.settlement.id))!;
    const events = await eventTypes(t, intent.id);

    // as claimed before it was submitted: PENDING, no envelope
    await pipeline().settler!.run({ ...confirmed, status: 'PENDING', envelope_xdr: null, submitted_at: null, confirmed_at: null });

    const settlement = (await t.request('GET', `/v1/settlements/${done.settlement.id}`, { key })).body;
    expect(settlement).toMatchObject({ status: 'CONFIRMED', transfer_transaction_hash: done.settlement.transfer_transaction_hash });
    expect((await t.request('GET', `/v1/funding-intents/${intent.id}`, { key })).body.status).toBe('CREDITED');
    expect(await eventTypes(t, intent.id)).toEqual(events);
    expect(await value(t.server.sql, "SELECT COUNT(*) AS n FROM ledger_entries WHERE funding_intent_id = ? AND type = 'INTENT_CREDIT' AND account = 'APPLICATION_BALANCE'", intent.id)).toBe(1);
  });

  it('of a refund: it stays COMPLETED, paid once', async () => {
    const intent = await createIntent(t);
    await pay(t, intent.id, '30');
    const done = await waitForIntent(t, intent.id, (i) => i.status === 'CREDITED');
    const created = await t.request('POST', `/v1/funding-intents/${intent.id}/payments/${done.payment.id}/refunds`, { key, body: { reason: 'OVERPAYMENT' } });
    expect(created.status).toBe(201);
    const completed = await waitFor(async () => (await t.request('GET', `/v1/refunds/${created.body.id}`, { key })).body, (r) => r.status === 'COMPLETED');
    const record = (await pipeline().repos.refunds.findById(created.body.id))!;
    const events = await eventTypes(t, intent.id);
    const deposit = done.deposit_account.address as string;
    const paidBefore = await paidFrom(deposit);
    expect(paidBefore).toBe(2);

    await pipeline().refundPayer!.pay({ ...record, status: 'PENDING', envelope_xdr: null, transaction_hash: null, completed_at: null });

    expect((await t.request('GET', `/v1/refunds/${created.body.id}`, { key })).body).toMatchObject({ status: 'COMPLETED', transaction_hash: completed.transaction_hash });
    expect(await eventTypes(t, intent.id)).toEqual(events);
    expect(await paidFrom(deposit)).toBe(paidBefore);
  });
});
