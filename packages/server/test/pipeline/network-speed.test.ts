/**
 * The pipeline at a real network's pace: a sandbox ledger that closes every second
 * (FUNDKIT_SANDBOX_LEDGER_SECONDS=1), transactions applied only at the close. Many intents paid
 * in one ledger are all CREDITED within two further ledgers: their settlements share
 * transactions over the treasury's channel accounts instead of queueing one per ledger.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latestLedger } from '../helpers/sandbox-rpc.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createIntent, FAST_ENV, key, waitFor, waitForIntent } from './helpers.js';

const INTENTS = 24;

let t: TestServer;
beforeAll(async () => {
  // the sandbox in its thread, reached over HTTP as testnet is: the test reads its ledgers over its RPC
  t = await startTestServer({ env: { ...FAST_ENV, FUNDKIT_SANDBOX_LEDGER_SECONDS: '1', FUNDKIT_DEPOSIT_POOL_SIZE: String(INTENTS),
    // two channels: two transactions a ledger, so only batching can settle them all in two ledgers
    FUNDKIT_TREASURY_CHANNELS: '2' } });
});
afterAll(() => t.close());

const horizon = async (path: string) => (await fetch(`${t.url}/sandbox/horizon${path}`)).json() as Promise<any>;

describe('at network speed (1 s ledgers)', () => {
  it(`${INTENTS} intents paid in one ledger are all CREDITED within 2 further ledgers`, async () => {
    const pool = t.server.services.pipeline.pipeline.pool!;
    // The pool fills in the background on a clocked ledger (a few ledgers for its batches).
    await waitFor(async () => pool.ready('USDC'), (n) => n >= INTENTS, 25_000);
    const intents = await Promise.all(Array.from({ length: INTENTS }, () => createIntent(t, { amount: '5.00' })));
    expect(intents.every((i) => i.status === 'AWAITING_PAYMENT')).toBe(true);
    // Every payer submits at once, right after a close: their payments wait in the ledger's pending
    // set and apply together.
    const closed = await latestLedger(t);
    await waitFor(() => latestLedger(t), (n) => n > closed, 5_000);
    const paid = await Promise.all(intents.map((i) => t.request('POST', `/v1/test_helpers/funding-intents/${i.id}/payments`,
      { key, body: { amount: '5.00', asset: 'USDC' } })));
    expect(paid.every((r) => r.status === 200 || r.status === 201)).toBe(true);
    const paymentLedgers = new Set(paid.map((r) => r.body.ledger as number));
    const onPostgres = t.server.sql.dialect === 'postgres';
    // the close keeps its own time: 24 test-helper payments on 2 loaded cores can take long enough
    // to straddle one (a CI run had them do so on PostgreSQL); what follows counts from the last
    expect(paymentLedgers.size).toBeLessThanOrEqual(2);
    const paymentLedger = Math.max(...paymentLedgers);
    // one list read every 100 ms, as a merchant's backend would poll: 24 readers every 20 ms were
    // 1,200 requests a second, which on PostgreSQL took the cores the pipeline needed
    const done: any[] = await waitFor(async () => (await t.request('GET', '/v1/funding-intents?status=CREDITED&limit=100', { key })).body.data,
      (credited) => credited.length === INTENTS, 25_000, 100);
    const settlementLedgers = await Promise.all(done.map(async (i) => {
      const tx = await horizon(`/transactions/${i.settlement.transfer_transaction_hash}`);
      return tx.ledger as number;
    }));
    const spread = JSON.stringify({ paymentLedger, settlementLedgers });
    // PostgreSQL: every statement is a round trip and every transaction takes the writer lock (the
    // sandbox keeps its chain in its own thread's SQLite, not on that database): 2 further ledgers
    // here on an idle or half-busy machine, 3-4 with both cores busy elsewhere, against 2 on
    // SQLite in both. A known gap (issue 16); there the test keeps what holds whatever the speed:
    // all credited, settlements batched. Not asserted in ledgers on PostgreSQL: at 1 s ledgers a
    // ledger is a second of the machine's time, and with other suites on both cores (load average
    // 13-20) it took 9 further ledgers (2026-12-06, issue 39), so any bound there measures the
    // machine. The bound holds on SQLite, where the pipeline's transactions cost no round trips.
    if (onPostgres) console.info(`network speed on PostgreSQL: ${spread}`);
    else expect(Math.max(...settlementLedgers) - paymentLedger, spread).toBeLessThanOrEqual(2);
    // …in at most two transactions a ledger: many settlements share one.
    const transfers = new Set(done.map((i) => i.settlement.transfer_transaction_hash));
    expect(transfers.size, spread).toBeLessThanOrEqual(2 * new Set(settlementLedgers).size);
    // what is asserted is counted in ledgers, not seconds: the pool's fill and the credits each
    // get 25 s on loaded cores (the file's 30 s in all was met only by an idle machine)
  }, 75_000);
});

describe('at network speed with the deposit pool empty', () => {
  let e: TestServer;
  beforeAll(async () => {
    e = await startTestServer({ env: { ...FAST_ENV, FUNDKIT_SANDBOX_LEDGER_SECONDS: '1', FUNDKIT_DEPOSIT_POOL_SIZE: '0' } });
  });
  afterAll(() => e.close());

  it('a create answers CREATED/PROVISIONING at once, then AWAITING_PAYMENT (payment.pending) once a ledger created its account', async () => {
    const before = await latestLedger(e);
    const intent = await createIntent(e);
    expect(intent).toMatchObject({ status: 'CREATED', deposit_account: { status: 'PROVISIONING' } });
    expect(intent.funding_instructions.deposit.address).toBeNull();
    expect(intent.deposit_account.address).toBeNull();
    const ready = await waitForIntent(e, intent.id, (i) => i.status === 'AWAITING_PAYMENT', 10_000);
    expect(ready.deposit_account.address).toMatch(/^G[A-Z2-7]{55}$/);
    expect(ready.funding_instructions.deposit.address).toBe(ready.deposit_account.address);
    const account = await (await fetch(`${e.url}/sandbox/horizon/accounts/${ready.deposit_account.address}`)).json() as any;
    expect(account.last_modified_ledger).toBeGreaterThan(before);
    const events = await e.request('GET', '/v1/events?limit=100', { key });
    expect(events.body.data.filter((x: any) => x.type === 'payment.pending' && x.data.funding_intent_id === intent.id)).toHaveLength(1);
  });
});
