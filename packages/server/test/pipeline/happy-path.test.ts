import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { createIntent, eventTypes, history, key, pay, startPipelineServer, waitForIntent } from './helpers.js';

let t: TestServer;
beforeAll(async () => { t = await startPipelineServer(); });
afterAll(() => t.close());

describe('a full payment', () => {
  it('moves AWAITING_PAYMENT → … → CREDITED with a settlement, a credit and the events', async () => {
    const intent = await createIntent(t);
    expect(intent.status).toBe('AWAITING_PAYMENT');
    expect(intent.deposit_account.status).toBe('ACTIVE');
    expect(intent.protocol.status).toBe('REGISTERED');
    const payment = await pay(t, intent.id, '25.00');
    expect(payment).toMatchObject({ object: 'test_payment', amount: '25.0000000', asset: 'USDC', destination_address: intent.deposit_account.address });
    const done = await waitForIntent(t, intent.id, (i) => i.status === 'CREDITED');
    expect(done.received_amount).toBe('25.0000000');
    expect(done.payment).toMatchObject({ status: 'CONFIRMED', amount: '25.0000000', transaction_hash: payment.transaction_hash, refundable_amount: '0.0000000' });
    expect(done.settlement).toMatchObject({ status: 'CONFIRMED', reconciliation_status: 'RECONCILED', route: 'direct' });
    expect(done.protocol.status).toBe('CONFIRMED');
    expect(await history(t, intent.id)).toEqual(['CREATED', 'AWAITING_PAYMENT', 'PAYMENT_DETECTED', 'PAYMENT_CONFIRMED', 'SETTLING', 'SETTLED', 'CREDITED']);
    expect(await eventTypes(t, intent.id)).toEqual(['payment.pending', 'payment.processing', 'payout.initiated', 'payout.completed', 'payment.completed', 'invoice.paid']);
    const balances = await t.request('GET', '/v1/ledger/balances', { key });
    expect(balances.body.data.find((b: any) => b.asset === 'USDC')).toMatchObject({ available: '25.0000000', pending: '0.0000000' });
    const entries = await t.request('GET', `/v1/ledger/entries?funding_intent_id=${intent.id}`, { key });
    expect(entries.body.data).toHaveLength(2);
    // The payout left the deposit account in a treasury transaction: a channel account is its source,
    // and the treasury, co-signer of the deposit account, signed for it — not the deposit key.
    const horizon = async (path: string) => (await fetch(`${t.url}/sandbox/horizon${path}`)).json() as Promise<any>;
    const out = (await horizon(`/accounts/${intent.deposit_account.address}/payments?order=desc&limit=1`))._embedded.records[0];
    const tx = await horizon(`/transactions/${out.transaction_hash}`);
    expect(tx.source_account).not.toBe(intent.deposit_account.address);
    expect(tx.signatures).toHaveLength(2);
  });
});
