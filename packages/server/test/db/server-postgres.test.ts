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
import { value } from '../helpers/raw-sql.js';

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

  it('opens at most FUNDKIT_DATABASE_POOL_SIZE connections, however many requests arrive at once', async () => {
    const url = await freshPostgresDatabase('pool_size');
    const small = await startTestServer({ env: { ...FAST_ENV, FUNDKIT_DATABASE_URL: url, FUNDKIT_DATABASE_POOL_SIZE: '2' } });
    try {
      const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2
        ? small.request('POST', '/v1/funding-intents', { key, body: { amount: '1.00', asset: 'USDC' } })
        : small.request('GET', '/v1/funding-intents?limit=5', { key }))));
      expect(answers.map((a) => a.status).filter((s) => s !== 200 && s !== 201)).toEqual([]);
      const open = await small.server.sql.snapshot(() => value<number>(small.server.sql,
        "SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'fundkit-server'"));
      // at least the snapshot's own connection: the count does see the server's connections
      expect(Number(open)).toBeGreaterThanOrEqual(1);
      expect(Number(open)).toBeLessThanOrEqual(2);
    } finally {
      await small.close();
    }
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
