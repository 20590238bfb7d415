import { rows } from '../helpers/raw-sql.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointerOf } from '../../src/spec/operations.js';
import type { TestServer } from '../helpers/server.js';
import { createIntent, key, pay, startPipelineServer, waitFor, waitForIntent } from './helpers.js';

let t: TestServer;
beforeAll(async () => { t = await startPipelineServer(); });
afterAll(() => t.close());

describe('outbox events', () => {
  it('match the spec (PaymentEventData, PayoutEventData, RefundEventData) for every pipeline event', async () => {
    const credited = await createIntent(t, { metadata: { order: '42' }, reference: 'ord_42' });
    await pay(t, credited.id, '30');
    const done = await waitForIntent(t, credited.id, (i) => i.status === 'CREDITED');
    const refund = await t.request('POST', `/v1/funding-intents/${credited.id}/payments/${done.payment.id}/refunds`, { key, body: { reason: 'OVERPAYMENT' } });
    await waitFor(async () => (await t.request('GET', `/v1/refunds/${refund.body.id}`, { key })).body, (r) => r.status === 'COMPLETED');
    const failing = await createIntent(t);
    await t.request('POST', `/v1/test_helpers/funding-intents/${failing.id}/fail_settlement`, { key });
    await pay(t, failing.id, '25');
    await waitForIntent(t, failing.id, (i) => i.status === 'FAILED');
    const expiring = await createIntent(t);
    await t.request('POST', `/v1/test_helpers/funding-intents/${expiring.id}/expire`, { key });

    const events = ((await rows(t.server.sql, 'SELECT payload FROM events')) as { payload: string }[]).map((r) => JSON.parse(r.payload));
    const types = new Set(events.map((e) => e.type));
    for (const type of ['payment.pending', 'payment.processing', 'payment.completed', 'payment.failed', 'payout.initiated', 'payout.completed',
      'payout.failed', 'invoice.paid', 'invoice.overdue', 'refund.created', 'refund.completed']) expect(types, type).toContain(type);
    for (const event of events) {
      expect(t.server.context.validator.validateSchema(pointerOf('components', 'schemas', 'WebhookEvent'), event), event.type).toEqual([]);
      expect(event.livemode).toBe(false);
    }
    const paid = events.find((e) => e.type === 'invoice.paid' && e.data.funding_intent_id === credited.id);
    expect(paid.data).toMatchObject({ payment_id: credited.id, amount: 25, amount_decimal: '25.0000000', currency: 'USDC', settlement_amount: 25,
      settlement_amount_decimal: '25.0000000', settlement_asset: 'USDC', status: 'CREDITED', reference: 'ord_42', metadata: { order: '42' }, stellar_txn_hash: done.settlement.transfer_transaction_hash });
    const payout = events.find((e) => e.type === 'payout.completed' && e.data.funding_intent_id === credited.id);
    expect(payout.data).toMatchObject({ settlement_id: done.settlement.id, amount: 25, amount_decimal: '25.0000000', status: 'CONFIRMED', failure: null });
    const refunded = events.find((e) => e.type === 'refund.completed');
    expect(refunded.data).toMatchObject({ refund_id: refund.body.id, amount: 5, amount_decimal: '5.0000000', reason: 'OVERPAYMENT', status: 'COMPLETED' });
  });
});
