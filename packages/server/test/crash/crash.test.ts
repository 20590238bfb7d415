/**
 * Kill -9 at random moments while test payments and refunds flow; after each restart the server
 * must finish the work: every payment applied exactly once, every credit once, balanced journals,
 * every payout on chain recorded once, and no outbox event missing. Twice: on the instant
 * sandbox ledger, and on one that closes every second, where settlements and refund payouts
 * pile up into batched treasury transactions between closes (so kills land mid-batch, and a
 * restart drops what the ledger had pending, as a network may).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { startChild, freePort, kill, type Child } from './child.js';
import { chainAt, chainIn, checkInvariants } from './invariants.js';
import { call, CRASH_KEY, refundWhatIsRefundable, settle, SETTLEMENT_ADDRESS, traffic } from './traffic.js';
import { SqliteSql } from '../../src/db/sql.js';

// each restart costs ~7 s (tsx, spec parsing): 4 kills keep the test under a minute
const ROUNDS = 4;
const dirs: string[] = [];
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

type Env = Record<string, string>;

function scenarioEnv(extra: Env): Env {
  const dir = mkdtempSync(join(tmpdir(), 'fundkit-crash-'));
  dirs.push(dir);
  const env = {
    FUNDKIT_DB: join(dir, 'fundkit.db'), FUNDKIT_DATA_DIR: dir, FUNDKIT_BOOTSTRAP: join(dir, 'bootstrap.json'),
    FUNDKIT_MASTER_KEY: 'ab'.repeat(32), LOG_LEVEL: 'silent',
    FUNDKIT_WORKER_INTERVAL_MS: '20', FUNDKIT_BACKFILL_INTERVAL_MS: '100', FUNDKIT_WORKER_BACKOFF_MS: '20', ...extra,
  };
  writeFileSync(env.FUNDKIT_BOOTSTRAP, JSON.stringify({ applications: [{ name: 'Crash', secret_keys: [CRASH_KEY], settlement_address: SETTLEMENT_ADDRESS }] }));
  return env;
}

/** Settlements or refund payouts that shared a treasury transaction with another one. */
function batchedPayouts(db: Database.Database): number {
  return Number(db.prepare(`SELECT COUNT(*) FROM (SELECT hash FROM (
      SELECT transfer_transaction_hash AS hash FROM settlements WHERE status = 'CONFIRMED'
      UNION ALL SELECT transaction_hash FROM refunds WHERE status = 'COMPLETED') GROUP BY hash HAVING COUNT(*) > 1)`).pluck().get());
}

/** `lanes` of traffic for `roundMs` (plus up to as much again) before each kill. */
const SCENARIOS: Array<{ name: string; env: Env; lanes: number; roundMs: number; settleMs: number; timeoutMs: number }> = [
  { name: 'an instant ledger', env: {}, lanes: 2, roundMs: 500, settleMs: 15_000, timeoutMs: 180_000 },
  // many payers at once: their payouts wait for the same close and share treasury transactions
  { name: '1 s ledgers (batched treasury transactions)', env: { FUNDKIT_SANDBOX_LEDGER_SECONDS: '1', FUNDKIT_DEPOSIT_POOL_SIZE: '60' },
    lanes: 16, roundMs: 2500, settleMs: 30_000, timeoutMs: 300_000 },
];

describe.each(SCENARIOS)('crash safety on $name', ({ env: extra, lanes, roundMs, settleMs, timeoutMs, name }) => {
  it(`survives ${ROUNDS} SIGKILLs mid-flow with exactly-once effects`, async () => {
    const env = scenarioEnv(extra);
    const port = await freePort();
    let child = await startChild(env, port);
    for (let round = 0; round < ROUNDS; round++) {
      const flow = traffic(child, round * 1000, lanes);
      await new Promise((r) => setTimeout(r, roundMs + Math.random() * roundMs * 3));
      // until one intent was credited, a kill also waits for one: on a busy machine the short
      // rounds could otherwise all end before any payment, and the run would prove nothing
      if (round === ROUNDS - 1) await someCredited(child);
      await kill(child, 'SIGKILL');
      await flow;
      child = await startChild(env, port);
    }
    // one calm round: refunds of what the crashes left refundable, then everything finishes
    const reader = new Database(env.FUNDKIT_DB!, { readonly: true });
    // the sandbox network runs in the server's thread, its file (fundkit.sandbox.db) held by it:
    // read through its Horizon while it runs, and from the file once it stopped
    const chain = chainAt(`${child.url}/sandbox/horizon`);
    try {
      const why = () => child.stderr.join('').slice(-2000);
      await settle(SqliteSql.of(reader), settleMs, why, chain, timeoutMs / 3);
      await refundWhatIsRefundable(child);
      await settle(SqliteSql.of(reader), settleMs, why, chain, timeoutMs / 3);
    } finally {
      reader.close();
    }
    const balances = (await call(child, 'GET', '/v1/ledger/balances')).body.data;
    await kill(child, 'SIGTERM');
    const db = new Database(env.FUNDKIT_DB!);
    const chainFile = new Database(env.FUNDKIT_DB!.replace(/\.db$/, '.sandbox.db'), { readonly: true });
    try {
      expect(await checkInvariants(db, chainIn(chainFile))).toEqual([]);
      const sum = db.prepare("SELECT COALESCE(SUM(CASE direction WHEN 'CREDIT' THEN amount ELSE -amount END), 0) FROM ledger_entries WHERE account = 'APPLICATION_BALANCE' AND asset = 'USDC'").pluck().get() as number;
      expect(balances.find((b: any) => b.asset === 'USDC').available).toBe((sum / 1e7).toFixed(7));
      const intents = Number(db.prepare('SELECT COUNT(*) FROM funding_intents').pluck().get());
      const credited = Number(db.prepare("SELECT COUNT(*) FROM funding_intents WHERE status = 'CREDITED'").pluck().get());
      const refunds = Number(db.prepare("SELECT COUNT(*) FROM refunds WHERE status = 'COMPLETED'").pluck().get());
      const payments = Number(db.prepare('SELECT COUNT(*) FROM payments').pluck().get());
      const batched = batchedPayouts(db);
      console.info(`crash test (${name}): ${intents} intents (${credited} credited), ${payments} payments, ${refunds} refunds completed, ${batched} shared payout transactions`);
      expect(credited).toBeGreaterThan(0);
      expect(payments).toBeGreaterThan(credited);
      // on a clocked ledger payouts wait for the close together: the kills hit batched transactions
      if (extra.FUNDKIT_SANDBOX_LEDGER_SECONDS) expect(batched).toBeGreaterThan(0);
    } finally {
      db.close();
      chainFile.close();
    }
  }, timeoutMs);
});

/** Waits (at most 90 s) until the server lists a CREDITED intent. */
async function someCredited(target: { url: string }): Promise<void> {
  const until = Date.now() + 90_000;
  while (Date.now() < until) {
    const list = (await call(target, 'GET', '/v1/funding-intents?limit=100').catch(() => null))?.body?.data ?? [];
    if (list.some((i: { status: string }) => i.status === 'CREDITED')) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}
