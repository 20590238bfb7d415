/**
 * The ledger follower's failure path, on both engines: a record the observer fails to apply holds
 * the cursor below its ledger and is read again, never skipped, and credited once when it
 * applies; an upgraded database starts each account from the ledger that created it; a 429's
 * Retry-After holds the follower's next read; a source without the ledgers the cursor needs, or a
 * network whose tip is behind it (a reset), stops it loudly. /readyz says each, with its reason
 * (read with the metrics token: its detail may be kept for operators).
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair } from '@stellar/stellar-sdk';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { rows, run, value } from '../helpers/raw-sql.js';
import { OPERATOR_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { createIntent, FAST_ENV, key, pay, waitFor, waitForIntent } from './helpers.js';

const open: TestServer[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function start(env: Record<string, string>): Promise<TestServer> {
  const t = await startTestServer({ env });
  open.push(t);
  return t;
}

/** /readyz with the metrics token (the operator key here): status and every check's detail. */
async function readyz(t: TestServer) {
  const res = await fetch(`${t.url}/readyz`, { headers: { authorization: `Bearer ${OPERATOR_KEY}` } });
  return { status: res.status, checks: ((await res.json()) as { checks: Record<string, { status: string; error?: string; ledgers_behind?: number }> }).checks };
}

async function ledgersBehindMetric(t: TestServer): Promise<number> {
  const text = await (await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${OPERATOR_KEY}` } })).text();
  return Number(/^fundkit_ledgers_behind (\d+)/m.exec(text)?.[1] ?? NaN);
}

const onPostgres = (t: TestServer) => t.server.config.databaseUrl !== null && t.server.config.databaseUrl !== undefined;

/** Makes the database refuse any payment recorded for `intentId` (a trigger), until the returned function drops it. */
async function failPaymentsOf(t: TestServer, intentId: string): Promise<() => Promise<void>> {
  if (onPostgres(t)) {
    await run(t.server.sql, `CREATE FUNCTION fk_test_fail_payment() RETURNS trigger LANGUAGE plpgsql AS $body$
      BEGIN IF NEW.funding_intent_id = '${intentId}' THEN RAISE EXCEPTION 'the test refuses this payment'; END IF; RETURN NEW; END $body$`);
    await run(t.server.sql, 'CREATE TRIGGER fk_test_fail_payment BEFORE INSERT ON payments FOR EACH ROW EXECUTE FUNCTION fk_test_fail_payment()');
    return async () => {
      await run(t.server.sql, 'DROP TRIGGER fk_test_fail_payment ON payments');
      await run(t.server.sql, 'DROP FUNCTION fk_test_fail_payment()');
    };
  }
  await run(t.server.sql, `CREATE TRIGGER fk_test_fail_payment BEFORE INSERT ON payments WHEN NEW.funding_intent_id = '${intentId}'
    BEGIN SELECT RAISE(ABORT, 'the test refuses this payment'); END`);
  return async () => { await run(t.server.sql, 'DROP TRIGGER fk_test_fail_payment'); };
}

/** Statements on a stopped server's database, either engine (SQLite's file, or its PostgreSQL database). */
async function onDatabase(env: Record<string, string>, sqlite: string[], postgres: string[]): Promise<void> {
  if (env.FUNDKIT_DATABASE_URL) {
    const client = new pg.Client({ connectionString: env.FUNDKIT_DATABASE_URL });
    await client.connect();
    try {
      for (const statement of postgres) await client.query(statement);
    } finally {
      await client.end();
    }
    return;
  }
  const file = new Database(env.FUNDKIT_DB!);
  try {
    for (const statement of sqlite) file.exec(statement);
  } finally {
    file.close();
  }
}

const cursorLedger = async (t: TestServer) => Number(await value(t.server.sql, 'SELECT ledger FROM network_cursors'));
const failures = (t: TestServer) => t.logs.filter((l) => l.msg === 'observer could not process a record').map((l) => String(l.operation));
const ledgerOfOperation = (id: string) => Number(BigInt(id) >> 32n);

describe('a record the observer fails to apply (the sandbox, over its thread)', () => {
  it('holds the cursor below its ledger and is read again; once it applies, it is credited exactly once', async () => {
    const t = await start(FAST_ENV);
    const intent = await createIntent(t, { amount: '5.00' });
    const allow = await failPaymentsOf(t, intent.id);
    await pay(t, intent.id, '5.00');
    // read, refused, read again: never skipped
    await waitFor(async () => failures(t), (f) => f.length >= 2, 15_000);
    const ledger = ledgerOfOperation(failures(t)[0]!);
    expect(new Set(failures(t))).toEqual(new Set([failures(t)[0]]));
    expect(await cursorLedger(t)).toBeLessThan(ledger);
    expect(t.server.services.pipeline.pipeline.follower!.caughtUpLedger).toBeLessThan(ledger);
    expect((await t.request('GET', `/v1/funding-intents/${intent.id}`, { key })).body).toMatchObject({ status: 'AWAITING_PAYMENT', received_amount: '0.0000000' });

    await allow();
    const credited = await waitForIntent(t, intent.id, (i) => i.status === 'CREDITED', 20_000);
    expect(credited.received_amount).toBe('5.0000000');
    const payments = (await t.request('GET', `/v1/funding-intents/${intent.id}/payments`, { key })).body.data as { amount: string; operation_id?: string }[];
    expect(payments).toHaveLength(1);
    expect(payments[0]!.amount).toBe('5.0000000');
    expect(await value(t.server.sql, 'SELECT COUNT(*) FROM payments WHERE funding_intent_id = ?', intent.id)).toBe(1);
    expect(await cursorLedger(t)).toBeGreaterThanOrEqual(ledger);
  }, 60_000);
});

describe('the upgrade start (a database from before the follower: no cursor)', () => {
  it('starts each watched account from the ledger that created it, so a payment made before the upgrade is credited', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fundkit-upgrade-'));
    const env: Record<string, string> = { ...FAST_ENV, FUNDKIT_DB: join(dir, 'fundkit.db'), FUNDKIT_DATA_DIR: dir, FUNDKIT_MASTER_KEY: 'cd'.repeat(32) };
    if (process.env.FUNDKIT_TEST_ENGINE === 'postgres') env.FUNDKIT_DATABASE_URL = await (await import('../helpers/postgres.js')).freshPostgresDatabase('upgrade');
    const before = await start(env);
    const intent = await createIntent(before, { amount: '4.00' });
    // the old server never records the payment (as a stream per account that had not read it yet)
    await failPaymentsOf(before, intent.id);
    await pay(before, intent.id, '4.00');
    await waitFor(async () => failures(before), (f) => f.length >= 1, 15_000);
    const paidIn = ledgerOfOperation(failures(before)[0]!);
    // the network goes on past that ledger (another payment, its own ledger)
    await pay(before, (await createIntent(before, { amount: '1.00' })).id, '1.00');
    await before.close();
    open.splice(open.indexOf(before), 1);
    // the database as an older version left it: no cursor (the trigger gone too)
    await onDatabase(env, ['DROP TRIGGER fk_test_fail_payment', 'DELETE FROM network_cursors'],
      ['DROP TRIGGER fk_test_fail_payment ON payments', 'DROP FUNCTION fk_test_fail_payment()', 'DELETE FROM network_cursors']);
    const after = await start(env);
    const watched = await rows<{ provision_tx_hash: string | null; cursor: string | null }>(after.server.sql,
      'SELECT provision_tx_hash, cursor FROM deposit_watch WHERE address = ?', intent.deposit_account.address);
    expect(watched).toHaveLength(1);
    expect(watched[0]!.provision_tx_hash).toMatch(/^[0-9a-f]{64}$/);
    const credited = await waitForIntent(after, intent.id, (i) => i.status === 'CREDITED', 20_000);
    expect(credited.received_amount).toBe('4.0000000');
    expect(await value(after.server.sql, 'SELECT COUNT(*) FROM payments WHERE funding_intent_id = ?', intent.id)).toBe(1);
    expect(await cursorLedger(after)).toBeGreaterThanOrEqual(paidIn);
  }, 90_000);
});

/** A Horizon of a custom network whose tip, history, payments answer and treasury balance the test sets. */
async function fakeHorizon(passphrase: string) {
  const state = { tip: 100, elder: 1, payments: 200 as 200 | 429 | 500, retryAfterS: 0, xlm: '10000.0000000', paymentReads: 0 };
  const server: Server = createHttpServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => res.writeHead(status, {
      'content-type': 'application/hal+json', 'latest-ledger': String(state.tip), ...headers,
    }).end(JSON.stringify(body));
    if (path === '/') return json(200, { network_passphrase: passphrase, history_latest_ledger: state.tip, history_elder_ledger: state.elder, core_latest_ledger: state.tip });
    if (path === '/payments') {
      state.paymentReads += 1;
      const from = Number(BigInt(new URL(req.url!, 'http://h').searchParams.get('cursor') ?? '0') >> 32n);
      // as Horizon: a cursor older than the history it keeps is gone
      if (from < state.elder) return json(410, { type: 'https://stellar.org/horizon-errors/before_history', title: 'Data Requested Is Before Recorded History', status: 410 });
      if (state.payments === 429) return json(429, { status: 429, title: 'Rate Limit Exceeded' }, state.retryAfterS ? { 'retry-after': String(state.retryAfterS) } : {});
      if (state.payments === 500) return json(500, { status: 500, title: 'Internal Server Error' });
      return json(200, { _embedded: { records: [] }, _links: {} });
    }
    const id = /^\/accounts\/(G[A-Z2-7]{55})$/.exec(path)?.[1];
    if (id) {
      return json(200, { id, account_id: id, sequence: '1', subentry_count: 0, thresholds: { low_threshold: 0, med_threshold: 0, high_threshold: 0 }, flags: {}, signers: [],
        balances: [{ balance: state.xlm, asset_type: 'native', buying_liabilities: '0.0000000', selling_liabilities: '0.0000000' }] });
    }
    return json(404, { type: 'https://stellar.org/horizon-errors/not_found', title: 'Resource Missing', status: 404 });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, state };
}

describe('the follower on a network it reads over Horizon (custom network)', () => {
  const passphrase = 'Standalone Network ; February 2017';
  const custom = async (extra: Record<string, string> = {}) => {
    const horizon = await fakeHorizon(passphrase);
    const env = {
      FUNDKIT_STELLAR: 'custom', FUNDKIT_NETWORK_PASSPHRASE: passphrase, FUNDKIT_HORIZON_URL: horizon.url, FUNDKIT_MASTER_KEY: 'a'.repeat(64),
      FUNDKIT_ASSETS: `USDC:${Keypair.random().publicKey()},EURC:${Keypair.random().publicKey()}`, FUNDKIT_DEPOSIT_POOL_SIZE: '0', ...FAST_ENV, ...extra,
    };
    return { horizon, t: await start(env) };
  };

  it('stops loudly, never skipping, once Horizon no longer has the ledgers its cursor needs: /readyz says what to do', async () => {
    const { horizon, t } = await custom();
    const follower = t.server.services.pipeline.pipeline.follower!;
    await expect.poll(() => follower.caughtUpLedger).toBe(100);
    await expect.poll(async () => (await readyz(t)).status).toBe(200);
    // Horizon pruned its history up to ledger 59 while the cursor was at 40
    horizon.state.elder = 60;
    await run(t.server.sql, 'UPDATE network_cursors SET ledger = 40');
    await expect.poll(() => follower.halted).toMatch(/keeps ledgers from 60 on; ledger 41 is gone/);
    const ready = await readyz(t);
    expect(ready.status).toBe(503);
    expect(ready.checks.follower).toMatchObject({ status: 'fail' });
    expect(ready.checks.follower!.error).toMatch(/the ledger follower stopped: Horizon at .* keeps ledgers from 60 on; ledger 41 is gone\. Payments in ledgers 41–59 cannot be observed/);
    expect(await cursorLedger(t)).toBe(40);
    // the operator accepts the gap (sets the cursor): the next attempt follows again
    await run(t.server.sql, 'UPDATE network_cursors SET ledger = 59');
    await follower.run();
    expect(follower.halted).toBeNull();
    expect(follower.caughtUpLedger).toBe(100);
  });

  it('stops, rather than skip what comes, when the network\'s tip is behind its cursor (a reset network): /readyz says so', async () => {
    const { t } = await custom();
    const follower = t.server.services.pipeline.pipeline.follower!;
    await expect.poll(() => follower.caughtUpLedger).toBe(100);
    expect(await run(t.server.sql, 'UPDATE network_cursors SET ledger = 5000')).toBe(1);
    await expect.poll(() => follower.halted).toMatch(/latest ledger \(100\) is behind the follower's cursor \(5000\): the network was reset/);
    expect(follower.caughtUpLedger).toBeLessThan(5000);
    await expect.poll(async () => (await readyz(t)).status).toBe(503);
    expect((await readyz(t)).checks.follower!.error).toMatch(/^the ledger follower stopped: the custom network's latest ledger \(100\) is behind the follower's cursor \(5000\)/);
    expect(await cursorLedger(t)).toBe(5000);
  });

  it('a 429 with Retry-After holds the follower\'s next read that long, not its own shorter backoff', async () => {
    const { horizon, t } = await custom();
    const follower = t.server.services.pipeline.pipeline.follower!;
    await expect.poll(() => follower.caughtUpLedger).toBe(100);
    const readsBefore = horizon.state.paymentReads;
    horizon.state.payments = 429;
    horizon.state.retryAfterS = 30;
    horizon.state.tip = 101;
    follower.wake();
    await expect.poll(() => horizon.state.paymentReads > readsBefore && !follower.due()).toBe(true);
    const refusedAt = Date.now();
    // the backoff of a first failure is 1 s; the network asked for 30
    expect(follower.due(refusedAt + 5_000)).toBe(false);
    expect(follower.due(refusedAt + 20_000)).toBe(false);
    expect(follower.due(refusedAt + 30_000)).toBe(true);
    const reads = horizon.state.paymentReads;
    follower.wake();
    expect(follower.due()).toBe(false);
    expect(horizon.state.paymentReads).toBe(reads);
  });

  it('/readyz fails when the follower is more ledgers behind than allowed, and fundkit_ledgers_behind moves with it', async () => {
    const { horizon, t } = await custom({ FUNDKIT_READY_MAX_LEDGERS_BEHIND: '10' });
    const follower = t.server.services.pipeline.pipeline.follower!;
    await expect.poll(() => follower.caughtUpLedger).toBe(100);
    await expect.poll(async () => (await readyz(t)).checks.follower).toMatchObject({ status: 'ok', ledgers_behind: 0 });
    await expect.poll(() => ledgersBehindMetric(t)).toBe(0);
    // its reads fail from now on; the network goes on closing ledgers
    horizon.state.payments = 500;
    horizon.state.tip = 105;
    await expect.poll(() => ledgersBehindMetric(t)).toBe(5);
    await expect.poll(async () => (await readyz(t)).checks.follower).toMatchObject({ status: 'ok', ledgers_behind: 5 });
    horizon.state.tip = 130;
    await expect.poll(() => ledgersBehindMetric(t)).toBe(30);
    const behind = await readyz(t);
    expect(behind.status).toBe(503);
    expect(behind.checks.follower).toMatchObject({ status: 'fail', ledgers_behind: 30, error: 'the ledger follower is 30 ledgers behind the network (more than 10)' });
    // the source answers again: caught up, ready
    horizon.state.payments = 200;
    follower.wake();
    // (its backoff doubles per failed read, from 1 s: a few seconds of failures wait up to 16 s)
    await expect.poll(() => ledgersBehindMetric(t), { timeout: 45_000 }).toBe(0);
    await expect.poll(async () => (await readyz(t)).status, { timeout: 20_000 }).toBe(200);
  }, 90_000);

  it('/readyz fails while the treasury cannot fund one more pool account, saying how much it has', async () => {
    const { horizon, t } = await custom();
    await expect.poll(async () => (await readyz(t)).status).toBe(200);
    horizon.state.xlm = '1.0000000';
    await expect.poll(async () => (await readyz(t)).checks.treasury?.status, { timeout: 15_000 }).toBe('fail');
    const short = await readyz(t);
    expect(short.status).toBe(503);
    expect(short.checks.treasury!.error).toMatch(/^the treasury has 0\.\d{7} XLM above its reserves; one more pool account needs \d+\.\d{7} \(fund it: see fundkit treasury\)$/);
    horizon.state.xlm = '10000.0000000';
    await expect.poll(async () => (await readyz(t)).status, { timeout: 15_000 }).toBe(200);
  });

  it('starts while the network does not answer, and /readyz says so (network and follower)', async () => {
    const t = await start({
      FUNDKIT_STELLAR: 'custom', FUNDKIT_NETWORK_PASSPHRASE: passphrase, FUNDKIT_RPC_URL: 'http://127.0.0.1:9/rpc', FUNDKIT_MASTER_KEY: 'a'.repeat(64),
      FUNDKIT_ASSETS: `USDC:${Keypair.random().publicKey()},EURC:${Keypair.random().publicKey()}`, FUNDKIT_DEPOSIT_POOL_SIZE: '0',
    });
    const ready = await readyz(t);
    expect(ready.status).toBe(503);
    expect(ready.checks.network).toMatchObject({ status: 'fail', error: expect.stringMatching(/127\.0\.0\.1:9|ECONNREFUSED|fetch failed|unreachable/i) });
    expect(ready.checks.follower).toMatchObject({ status: 'fail', error: 'the network\'s tip is unknown (see the network check)' });
    expect(ready.checks.database).toMatchObject({ status: 'ok' });
  });
});
