/**
 * Creates commit in groups: the writes queued in one turn of the event loop share one SQLite
 * transaction, each in its own savepoint. Every create still gets exactly its own rows (and a
 * pool account at most once), a failing write rolls back alone, and an answer comes only after
 * the commit.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroupCommit } from '../../src/db/group-commit.js';
import { rows, value } from '../helpers/raw-sql.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { FAST_ENV, key } from '../pipeline/helpers.js';

describe('GroupCommit', () => {
  it('commits a turn’s writes together, and a failing one rolls back alone', async () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (v TEXT UNIQUE)');
    const writes = new GroupCommit(db);
    const insert = (v: string) => async () => db.prepare('INSERT INTO t (v) VALUES (?)').run(v).changes;
    const settled = await Promise.allSettled([
      writes.run(insert('a')),
      writes.run(async () => { await insert('b')(); throw new Error('refused'); }),
      writes.run(insert('a')), // UNIQUE: fails alone
      writes.run(insert('c')),
    ]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect((settled[1] as PromiseRejectedResult).reason.message).toBe('refused');
    expect(db.prepare('SELECT v FROM t ORDER BY v').pluck().all()).toEqual(['a', 'c']);
    expect(db.inTransaction).toBe(false);
  });

  it('resolves a write only once it is committed', async () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (v TEXT)');
    const writes = new GroupCommit(db);
    const seen = await writes.run(async () => {
      db.prepare('INSERT INTO t (v) VALUES (?)').run('x');
      return db.inTransaction;
    });
    expect(seen).toBe(true);
    expect(db.inTransaction).toBe(false);
    expect(db.prepare('SELECT COUNT(*) FROM t').pluck().get()).toBe(1);
  });
});

describe('concurrent creates through HTTP', () => {
  const POOL = 5;
  const CREATES = 40;
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { ...FAST_ENV, FUNDKIT_DEPOSIT_POOL_SIZE: String(POOL) } });
  });
  afterAll(() => t.close());

  it(`${CREATES} creates at once: each its own intent and deposit account, every pool account taken once`, async () => {
    expect(await t.server.services.pipeline.pipeline.pool!.ready('USDC')).toBe(POOL);
    const answers = await Promise.all(Array.from({ length: CREATES }, (_, i) =>
      t.request('POST', '/v1/funding-intents', { key, body: { amount: '1.00', asset: 'USDC', reference: `order-${i}` } })));
    expect(answers.map((a) => a.status)).toEqual(Array(CREATES).fill(201));
    const intents = answers.map((a) => a.body);
    expect(new Set(intents.map((i) => i.id)).size).toBe(CREATES);
    expect(await value(t.server.sql, `SELECT COUNT(DISTINCT da.address) AS n FROM funding_intents fi JOIN deposit_accounts da ON da.id = fi.deposit_account_id
      WHERE fi.reference LIKE 'order-%'`)).toBe(CREATES);
    expect(intents.map((i) => i.reference).sort()).toEqual(Array.from({ length: CREATES }, (_, i) => `order-${i}`).sort());
    // every claimed pool account went to exactly one create (the instant ledger refills the pool meanwhile)
    const payable = intents.filter((i) => i.status === 'AWAITING_PAYMENT');
    expect(payable.length).toBeGreaterThanOrEqual(POOL);
    expect(payable.length + intents.filter((i) => i.status === 'CREATED').length).toBe(CREATES);
    const claimed = (await rows<{ address: string }>(t.server.sql, 'SELECT address FROM deposit_pool WHERE claimed_at IS NOT NULL')).map((r) => r.address);
    expect(claimed.sort()).toEqual(payable.map((i) => i.deposit_account.address).sort());
    // each answer was committed: every intent reads back as it was answered
    for (const intent of intents.slice(0, 5)) {
      const again = await t.request('GET', `/v1/funding-intents/${intent.id}`, { key });
      expect(again.body.deposit_account.id).toBe(intent.deposit_account.id);
      if (intent.status === 'AWAITING_PAYMENT') expect(again.body.deposit_account.address).toBe(intent.deposit_account.address);
    }
  });
});
