/**
 * The whole server on PostgreSQL: a funding intent created, paid on the sandbox ledger (whose
 * chain lives in the same database), confirmed, settled and credited; its refund-free history
 * and events as on SQLite. Other files run on PostgreSQL too with FUNDKIT_TEST_ENGINE=postgres.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { freshPostgresDatabase, postgresUrl } from '../helpers/postgres.js';
import { createIntent, eventTypes, FAST_ENV, history, key, pay, waitForIntent } from '../pipeline/helpers.js';
import { startTestServer } from '../helpers/server.js';

describe.skipIf(!postgresUrl)('the server on PostgreSQL', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { ...FAST_ENV, FUNDKIT_DATABASE_URL: await freshPostgresDatabase('server') } });
  });
  afterAll(() => t?.close());

  it('takes a payment to CREDITED, and lists it', async () => {
    expect(t.server.sql.dialect).toBe('postgres');
    const intent = await createIntent(t);
    expect(intent.status).toBe('AWAITING_PAYMENT');
    await pay(t, intent.id, '25.00');
    const done = await waitForIntent(t, intent.id, (i) => i.status === 'CREDITED', 15_000);
    expect(done.received_amount).toBe('25.0000000');
    expect(await history(t, intent.id)).toEqual(['CREATED', 'AWAITING_PAYMENT', 'PAYMENT_DETECTED', 'PAYMENT_CONFIRMED', 'SETTLING', 'SETTLED', 'CREDITED']);
    expect(await eventTypes(t, intent.id)).toEqual(['payment.pending', 'payment.processing', 'payout.initiated', 'payout.completed', 'payment.completed', 'invoice.paid']);
    const list = await t.request('GET', '/v1/funding-intents?limit=5', { key });
    expect(list.status).toBe(200);
    expect(list.body.data.map((i: { id: string }) => i.id)).toContain(intent.id);
    const balances = await t.request('GET', '/v1/ledger/balances', { key });
    expect(balances.body.data.find((b: { asset: string }) => b.asset === 'USDC')).toMatchObject({ available: '25.0000000' });
  });

  it('answers a replayed Idempotency-Key with the stored response', async () => {
    const headers = { 'idempotency-key': 'pg-replay-1' };
    const body = { amount: '3.00', asset: 'USDC' };
    const first = await t.request('POST', '/v1/funding-intents', { key, body, headers });
    const again = await t.request('POST', '/v1/funding-intents', { key, body, headers });
    expect(first.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.id).toBe(first.body.id);
  });
});
