/**
 * The whole server on PostgreSQL: a funding intent created, paid on the sandbox ledger (whose
 * chain lives in the same database), confirmed, settled and credited; its refund-free history
 * and events as on SQLite. Other files run on PostgreSQL too with FUNDKIT_TEST_ENGINE=postgres.
 */
import pg from 'pg';
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

  it('answers creates while its pipeline-style transactions wait for the writer lock (they wait without a connection)', async () => {
    const url = await freshPostgresDatabase('writer_queue');
    const small = await startTestServer({ env: { ...FAST_ENV, FUNDKIT_DATABASE_URL: url, FUNDKIT_DATABASE_POOL_SIZE: '3' } });
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      const intents = await Promise.all(Array.from({ length: 6 }, () => createIntent(small)));
      // another server's long writer transaction: the lock held elsewhere
      await holder.query(`SELECT pg_advisory_lock(${0x66756e77})`);
      // cancels read, check and write under the writer lock: all six queue behind it (the
      // workers' transactions too)
      const cancels = intents.map((i) => small.request('POST', `/v1/funding-intents/${i.id}/cancel`, { key }));
      await new Promise((resolve) => setTimeout(resolve, 300));
      // queued on the lock, they held all 3 connections, and this create waited for one
      const created = await Promise.race([
        small.request('POST', '/v1/funding-intents', { key, body: { amount: '2.00', asset: 'USDC' } }),
        new Promise<'stalled'>((resolve) => setTimeout(() => resolve('stalled'), 10_000)),
      ]);
      expect(created === 'stalled' ? created : created.status).toBe(201);
      await holder.query(`SELECT pg_advisory_unlock(${0x66756e77})`);
      expect((await Promise.all(cancels)).map((c) => c.body.status)).toEqual(Array(6).fill('CANCELLED'));
    } finally {
      await holder.end();
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
