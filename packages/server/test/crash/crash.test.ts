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
import { checkInvariants } from './invariants.js';

const KEY = 'sk_test_crashTestSecret000000000001';
const SETTLEMENT_ADDRESS = 'GDVEU3DD4KOFECV66VIHWEZOYX4ZKR3WV27L464SIIPOU2IUI3JCZA57';
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
  writeFileSync(env.FUNDKIT_BOOTSTRAP, JSON.stringify({ applications: [{ name: 'Crash', secret_keys: [KEY], settlement_address: SETTLEMENT_ADDRESS }] }));
  return env;
}

async function call(child: Child, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(child.url + path, {
    method, headers: { authorization: `Bearer ${KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** One intent's worth of traffic: full, over, or split payments, sometimes a wrong asset. */
async function oneIntent(child: Child, n: number): Promise<void> {
  const intent = (await call(child, 'POST', '/v1/funding-intents', { amount: '25', asset: 'USDC', reference: `r${n}` })).body;
  // with the deposit pool empty (a clocked ledger fills it in the background) the address comes a ledger later
  for (let i = 0; intent.status === 'CREATED' && i < 100; i++) {
    await new Promise((r) => setTimeout(r, 100));
    intent.status = (await call(child, 'GET', `/v1/funding-intents/${intent.id}`)).body?.status;
  }
  const pay = (amount: string, asset = 'USDC') => call(child, 'POST', `/v1/test_helpers/funding-intents/${intent.id}/payments`, { amount, asset });
  if (n % 3 === 0) await pay('25');
  if (n % 3 === 1) await pay('30');
  if (n % 3 === 2) { await pay('10'); await pay('15'); }
  if (n % 4 === 0) await pay('2', 'FAKE');
}

/** Traffic until the server dies under it (the errors are the point). */
async function traffic(child: Child, round: number, lanes: number): Promise<void> {
  let n = round * 1000;
  const lane = async () => {
    for (;;) {
      await oneIntent(child, n++);
      await refundWhatIsRefundable(child);
    }
  };
  await Promise.allSettled(Array.from({ length: lanes }, lane));
}

async function refundWhatIsRefundable(child: Child): Promise<void> {
  const payments = (await call(child, 'GET', '/v1/payments?limit=100')).body?.data ?? [];
  await Promise.allSettled(payments.filter((p: any) => p.refundable_amount !== '0.0000000')
    .map((p: any) => call(child, 'POST', `/v1/funding-intents/${p.funding_intent_id}/payments/${p.id}/refunds`, { reason: p.failure?.code ?? 'OVERPAYMENT' })));
}

function busy(db: Database.Database): number {
  return Number(db.prepare(`SELECT
    (SELECT COUNT(*) FROM funding_intents WHERE status IN ('PAYMENT_DETECTED', 'PAYMENT_CONFIRMED', 'ROUTING', 'SETTLING', 'SETTLED', 'REFUND_PENDING'))
    + (SELECT COUNT(*) FROM payments WHERE status = 'DETECTED')
    + (SELECT COUNT(*) FROM settlements WHERE status IN ('PENDING', 'SUBMITTED'))
    + (SELECT COUNT(*) FROM refunds WHERE status IN ('PENDING', 'PROCESSING'))`).pluck().get());
}

async function settle(child: Child, env: Env, timeoutMs: number): Promise<void> {
  const db = new Database(env.FUNDKIT_DB!, { readonly: true });
  try {
    const until = Date.now() + timeoutMs;
    while (busy(db) > 0) {
      if (Date.now() > until) throw new Error(`work left after restart: ${busy(db)}; ${child.stderr.join('').slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    db.close();
  }
}

/** Settlements or refund payouts that shared a treasury transaction with another one. */
function batchedPayouts(db: Database.Database): number {
  return Number(db.prepare(`SELECT COUNT(*) FROM (SELECT hash FROM (
      SELECT transfer_transaction_hash AS hash FROM settlements WHERE status = 'CONFIRMED'
      UNION ALL SELECT transaction_hash FROM refunds WHERE status = 'COMPLETED') GROUP BY hash HAVING COUNT(*) > 1)`).pluck().get());
}

/** `lanes` of traffic for `roundMs` (plus up to as much again) before each kill. */
const SCENARIOS: Array<{ name: string; env: Env; lanes: number; roundMs: number; settleMs: number; timeoutMs: number }> = [
  { name: 'an instant ledger', env: {}, lanes: 2, roundMs: 500, settleMs: 15_000, timeoutMs: 60_000 },
  // many payers at once: their payouts wait for the same close and share treasury transactions
  { name: '1 s ledgers (batched treasury transactions)', env: { FUNDKIT_SANDBOX_LEDGER_SECONDS: '1', FUNDKIT_DEPOSIT_POOL_SIZE: '60' },
    lanes: 16, roundMs: 2500, settleMs: 30_000, timeoutMs: 120_000 },
];

describe.each(SCENARIOS)('crash safety on $name', ({ env: extra, lanes, roundMs, settleMs, timeoutMs, name }) => {
  it(`survives ${ROUNDS} SIGKILLs mid-flow with exactly-once effects`, async () => {
    const env = scenarioEnv(extra);
    const port = await freePort();
    let child = await startChild(env, port);
    for (let round = 0; round < ROUNDS; round++) {
      const flow = traffic(child, round, lanes);
      await new Promise((r) => setTimeout(r, roundMs + Math.random() * roundMs * 3));
      await kill(child, 'SIGKILL');
      await flow;
      child = await startChild(env, port);
    }
    // one calm round: refunds of what the crashes left refundable, then everything finishes
    await settle(child, env, settleMs);
    await refundWhatIsRefundable(child);
    await settle(child, env, settleMs);
    const balances = (await call(child, 'GET', '/v1/ledger/balances')).body.data;
    await kill(child, 'SIGTERM');
    const db = new Database(env.FUNDKIT_DB!);
    try {
      expect(await checkInvariants(db)).toEqual([]);
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
    }
  }, timeoutMs);
});
