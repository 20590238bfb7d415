/**
 * Several servers on one database: what a credential or a request holds is held in the database,
 * so it holds whichever server the client reaches. Each server here is a whole Fundkit server
 * (its own workers, limiter and idempotency claims) on the same SQLite file, as separate
 * processes would be.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair } from '@stellar/stellar-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { randomKeypairProvisioner, type DepositAccountProvisioner } from '../../src/records/deposit-accounts.js';
import { rows, run, value } from '../helpers/raw-sql.js';
import { rpcCall } from '../helpers/sandbox-rpc.js';
import { KEYS, startTestServer, type TestServer } from '../helpers/server.js';
import { openStatusStream } from '../helpers/status-stream.js';

const open: TestServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/** Servers sharing one database (a file, or one PostgreSQL database under FUNDKIT_TEST_ENGINE=postgres), started one after the other. */
function cluster(extraEnv: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'fundkit-cluster-'));
  // one sandbox for the servers of the database, as they must share one: the test process's sandbox
  // thread for this ledger setting (test/helpers/server.ts), reached by each over HTTP
  const env: Record<string, string> = {
    FUNDKIT_DB: join(dir, 'fundkit.db'), FUNDKIT_DATA_DIR: dir, FUNDKIT_MASTER_KEY: 'ab'.repeat(32), FUNDKIT_DEPOSIT_POOL_SIZE: '0', ...extraEnv,
  };
  return async (provisionDepositAccount?: DepositAccountProvisioner) => {
    if (process.env.FUNDKIT_TEST_ENGINE === 'postgres') env.FUNDKIT_DATABASE_URL ??= await (await import('../helpers/postgres.js')).freshPostgresDatabase('cluster');
    const server = await startTestServer({ env, provisionDepositAccount });
    open.push(server);
    return server;
  };
}

const create = (server: TestServer, idempotencyKey: string, reference = idempotencyKey) => server.request('POST', '/v1/funding-intents', {
  key: KEYS.alphaSecretTest, body: { amount: '10', asset: 'USDC', reference }, headers: { 'idempotency-key': idempotencyKey },
});

describe('rate limits', () => {
  it('are one limit per credential across servers, not one per server', async () => {
    // 10 requests at once, then 1 a second
    const start = cluster({ FUNDKIT_RATE_LIMIT: '1', FUNDKIT_RATE_LIMIT_BURST: '10' });
    const servers = [await start(), await start()];
    const statuses: number[] = [];
    const started = Date.now();
    for (let i = 0; i < 24; i++) statuses.push((await servers[i % 2]!.request('GET', '/v1/assets', { key: KEYS.alphaSecretTest })).status);
    const seconds = (Date.now() - started) / 1000;
    const allowed = statuses.filter((s) => s === 200).length;
    // the burst, plus what refilled while the requests ran (each server alone would allow 10 and
    // then 1 a second each)
    expect(allowed).toBeGreaterThanOrEqual(10);
    expect(allowed).toBeLessThanOrEqual(10 + Math.ceil(seconds));
    expect(statuses.filter((s) => s === 429).length).toBe(24 - allowed);
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
  });
});

describe('idempotency keys', () => {
  it('hold a request running on one server against a retry on another, even one that starts meanwhile', async () => {
    // the request runs longer than the timeout: its server's heartbeat is what keeps the claim its
    // own. Both servers share this test's event loop, and the other's start parses and compiles
    // the spec without yielding (0.5-2 s on loaded cores), a silence of the first server's
    // heartbeat that separate processes would not have: the timeout is longer than that.
    const TIMEOUT_MS = 3_000;
    const start = cluster({ FUNDKIT_INSTANCE_TIMEOUT_MS: String(TIMEOUT_MS) });
    // the request runs until the test has seen the retry refused, however slow the machine
    let held: Promise<void> = Promise.resolve();
    let release = () => {};
    const slow: DepositAccountProvisioner = async (request) => {
      await held;
      return randomKeypairProvisioner(request);
    };
    const a = await start(slow);
    held = new Promise((resolve) => { release = resolve; });
    const running = create(a, 'cluster-held-1');
    const claimedAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 200));
    // a server starting frees the claims of servers that are gone, not of those still running
    const b = await start();
    // past the timeout since the claim: only the heartbeat keeps it
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, claimedAt + TIMEOUT_MS * 1.2 - Date.now())));
    // released whatever the retry's answer: a request still held would hold up closing its server
    const retry = await create(b, 'cluster-held-1').finally(release);
    expect(retry.status).toBe(409);
    expect(retry.body.error.code).toBe('IDEMPOTENCY_REQUEST_IN_PROGRESS');

    const first = await running;
    expect(first.status).toBe(201);
    const replay = await create(b, 'cluster-held-1');
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.id).toBe(first.body.id);
    expect(await value(b.server.sql, "SELECT COUNT(*) AS n FROM funding_intents WHERE reference = 'cluster-held-1'")).toBe(1);
  });

  it('held by a server that stopped answering (SIGKILL, crash) are taken over once its heartbeat is older than the timeout', async () => {
    const start = cluster({ FUNDKIT_INSTANCE_TIMEOUT_MS: '1000' });
    const server = await start();
    const { sql } = server.server;
    // a claim as the idempotency layer writes it for this request (its scope and body hash), made by another server
    expect((await create(server, 'cluster-probe', 'same')).status).toBe(201);
    const [probe] = await rows<{ scope: string; request_hash: string }>(sql, "SELECT scope, request_hash FROM idempotency_keys WHERE key = 'cluster-probe'");
    const hold = (key: string, owner: string) => run(sql, `INSERT INTO idempotency_keys (scope, key, request_hash, state, created_at, expires_at, owner)
      VALUES (?, ?, ?, 'in_progress', '2026-01-01T00:00:00.000Z', '2999-01-01T00:00:00.000Z', ?)`, probe!.scope, key, probe!.request_hash, owner);
    const instance = (id: string, heartbeatAgoMs: number) => run(sql, `INSERT INTO server_instances (id, host, pid, started_at, heartbeat_at)
      VALUES (?, 'elsewhere', 1, '2026-01-01T00:00:00.000Z', ?)`, id, new Date(Date.now() - heartbeatAgoMs).toISOString());
    // a heartbeat ahead of the clock: alive however long the requests below take
    await instance('srv_alive', -60_000);
    await instance('srv_silent', 5_000);
    await hold('cluster-alive-1', 'srv_alive');
    await hold('cluster-silent-1', 'srv_silent');
    await hold('cluster-gone-1', 'srv_never_registered');

    expect((await create(server, 'cluster-alive-1', 'same')).status).toBe(409);
    expect((await create(server, 'cluster-silent-1', 'same')).status).toBe(201);
    expect((await create(server, 'cluster-gone-1', 'same')).status).toBe(201);
  });
});

describe('the deposit pool', () => {
  it('gives each warm account to one create, while creates arrive on two servers at once', async () => {
    const POOL = 6;
    const start = cluster({ FUNDKIT_DEPOSIT_POOL_SIZE: String(POOL) });
    const a = await start();
    const b = await start();
    expect(await a.server.services.pipeline.pipeline.pool!.ready('USDC')).toBe(POOL);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => create(i % 2 ? a : b, `cluster-pool-${i}`)));
    expect(answers.map((r) => r.status)).toEqual(Array(30).fill(201));
    // each warm account claimed went to exactly one create (an account still PROVISIONING shows
    // no address yet); the instant ledger refills the pool meanwhile, so there may be more than POOL
    const addresses = answers.filter((r) => r.body.status === 'AWAITING_PAYMENT').map((r) => r.body.deposit_account.address);
    expect(new Set(addresses).size).toBe(addresses.length);
    expect(addresses.every((a) => /^G[A-Z2-7]{55}$/.test(a))).toBe(true);
    expect(await value(a.server.sql, `SELECT COUNT(DISTINCT da.address) AS n FROM funding_intents fi JOIN deposit_accounts da ON da.id = fi.deposit_account_id
      WHERE fi.reference LIKE 'cluster-pool-%'`)).toBe(30);
    const warm = addresses.length;
    expect(warm).toBeGreaterThanOrEqual(POOL);
    expect(await value(a.server.sql, 'SELECT COUNT(*) AS n FROM deposit_pool WHERE claimed_at IS NOT NULL')).toBe(warm);
  });
});

/** An intent created and paid through `server`, followed until it is credited. */
async function payThrough(server: TestServer, reference: string): Promise<string> {
  const intent = await server.request('POST', '/v1/funding-intents', { key: KEYS.alphaSecretTest, body: { amount: '25', asset: 'USDC', reference } });
  expect(intent.status).toBe(201);
  const id = intent.body.id as string;
  await until(async () => (await server.request('GET', `/v1/funding-intents/${id}`, { key: KEYS.alphaSecretTest })).body.status === 'AWAITING_PAYMENT');
  const paid = await server.request('POST', `/v1/test_helpers/funding-intents/${id}/payments`, { key: KEYS.alphaSecretTest, body: { amount: '25', asset: 'USDC' } });
  expect(paid.status).toBeLessThan(300);
  await until(async () => (await server.request('GET', `/v1/funding-intents/${id}`, { key: KEYS.alphaSecretTest })).body.status === 'CREDITED');
  return id;
}

describe('the payment pipeline', () => {
  const leaseHolder = (server: TestServer) => value<string>(server.server.sql, "SELECT owner FROM leases WHERE name = 'pipeline'");

  it('runs on one server at a time; when that server stops, another takes it over and payments are still credited once', async () => {
    // servers in one test process share an event loop: a start blocks the other's heartbeat for a while
    const start = cluster({ FUNDKIT_INSTANCE_TIMEOUT_MS: '5000', FUNDKIT_BACKFILL_INTERVAL_MS: '100', FUNDKIT_WORKER_INTERVAL_MS: '20' });
    const a = await start();
    const b = await start();
    expect(a.server.leadsPipeline()).toBe(true);
    expect(b.server.leadsPipeline()).toBe(false);
    expect(await leaseHolder(b)).toBe(a.server.instanceId);

    // created and paid through the server that does not run the pipeline: the other one credits it
    const first = await payThrough(b, 'cluster-pipeline-1');

    open.splice(open.indexOf(a), 1);
    await a.close();
    await until(async () => b.server.leadsPipeline());
    expect(await leaseHolder(b)).toBe(b.server.instanceId);
    const second = await payThrough(b, 'cluster-pipeline-2');

    const { sql } = b.server;
    for (const id of [first, second]) {
      expect(await value(sql, 'SELECT COUNT(*) AS n FROM payments WHERE funding_intent_id = ?', id)).toBe(1);
      expect(await value(sql, "SELECT COUNT(*) AS n FROM ledger_entries WHERE funding_intent_id = ? AND type = 'INTENT_CREDIT' AND account = 'APPLICATION_BALANCE'", id)).toBe(1);
    }
  });
});

describe('a sandbox ledger on a clock (FUNDKIT_SANDBOX_LEDGER_SECONDS)', () => {
  it('is one network for every server: paid through the server without the pipeline, credited by the other, one close a second between them', async () => {
    const start = cluster({ FUNDKIT_SANDBOX_LEDGER_SECONDS: '1', FUNDKIT_INSTANCE_TIMEOUT_MS: '5000', FUNDKIT_BACKFILL_INTERVAL_MS: '100', FUNDKIT_WORKER_INTERVAL_MS: '20' });
    const a = await start();
    const b = await start();
    expect(a.server.leadsPipeline()).toBe(true);
    const sandboxOf = (t: TestServer) => t.server.services.pipeline.pipeline.stellar!.sandbox!.url;
    expect(sandboxOf(b)).toBe(sandboxOf(a));
    // the sandbox read as any client reads it: its Stellar RPC (forwarded at the server's /sandbox/rpc)
    const rpc = `${a.url}/sandbox/rpc`;
    const ledger = async () => (await rpcCall<{ sequence: number }>(rpc, 'getLatestLedger')).sequence;
    const before = await ledger();
    const startedAt = Date.now();

    // the deposit account, the payment (submitted through b) and the settlement each wait for a close
    const id = await payThrough(b, 'cluster-clocked-1');

    // friendbot on both at once: one source account, so one of the two grants waits a close
    const payers = [Keypair.random(), Keypair.random()];
    const grants = await Promise.all([a, b].map((s, i) => fetch(`${s.url}/sandbox/friendbot?addr=${payers[i]!.publicKey()}`)));
    expect(grants.map((g) => g.status)).toEqual([200, 200]);
    const seconds = (Date.now() - startedAt) / 1000;
    const closes = await ledger() - before;
    // one clock: two (one a server) would close about twice a second
    expect(closes).toBeGreaterThanOrEqual(2);
    expect(closes).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
    const { sql } = b.server;
    const [payment] = await rows<{ ledger: number }>(sql, 'SELECT ledger FROM payments WHERE funding_intent_id = ?', id);
    const [settled] = await rows<{ hash: string }>(sql, 'SELECT transfer_transaction_hash AS hash FROM settlements WHERE funding_intent_id = ?', id);
    const settlement = await rpcCall<{ status: string; ledger: number }>(rpc, 'getTransaction', { hash: settled!.hash });
    expect(settlement.status).toBe('SUCCESS');
    const settlementLedger = settlement.ledger;
    expect(settlementLedger).toBeGreaterThan(Number(payment!.ledger));
    expect(await value(sql, "SELECT COUNT(*) AS n FROM ledger_entries WHERE funding_intent_id = ? AND type = 'INTENT_CREDIT' AND account = 'APPLICATION_BALANCE'", id)).toBe(1);
  });
});

describe('checkout status streams', () => {
  let sessions = 0;
  const session = async (server: TestServer, intentId: string) => {
    // a key of its own each: two tabs of one intent ask at once
    const made = await server.request('POST', '/v1/checkout_sessions', {
      key: KEYS.alphaSecretTest, body: { funding_intent_id: intentId }, headers: { 'idempotency-key': `stream-session-${sessions++}` },
    });
    expect(made.status).toBe(201);
    return made.body.session_token as string;
  };

  it('follow an intent on whichever server the payer reached: streams on the server without the pipeline see the other credit it', async () => {
    const start = cluster({ FUNDKIT_INSTANCE_TIMEOUT_MS: '5000', FUNDKIT_WORKER_INTERVAL_MS: '20' });
    const a = await start();
    const b = await start();
    expect(a.server.leadsPipeline()).toBe(true);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const intent = await a.request('POST', '/v1/funding-intents', { key: KEYS.alphaSecretTest, body: { amount: '25', asset: 'USDC' } });
      ids.push(intent.body.id);
    }
    await until(async () => (await a.request('GET', `/v1/funding-intents/${ids[2]}`, { key: KEYS.alphaSecretTest })).body.status === 'AWAITING_PAYMENT');
    // each payer on b, two tabs on the first intent
    const streams = await Promise.all([...ids, ids[0]!].map(async (id) => openStatusStream(b.url, id, await session(a, id))));
    try {
      await until(() => streams.every((s) => s.statuses.length > 0));
      for (const id of ids) {
        const paid = await a.request('POST', `/v1/test_helpers/funding-intents/${id}/payments`, { key: KEYS.alphaSecretTest, body: { amount: '25', asset: 'USDC' } });
        expect(paid.status).toBeLessThan(300);
      }
      await until(() => streams.every((s) => s.statuses.at(-1) === 'CREDITED'));
      for (const stream of streams) {
        expect(stream.statuses[0]).toBe('AWAITING_PAYMENT');
        // a view only when the intent moved: no two alike in a row (a status can repeat, with
        // other fields changed: the settlement's details, the amount received)
        expect(stream.views.filter((view, i) => view === stream.views[i - 1])).toEqual([]);
      }
    } finally {
      for (const stream of streams) stream.close();
    }
  });

  it('end when their server stops, which does not wait for the payers to leave', async () => {
    const start = cluster();
    const a = await start();
    const intent = await a.request('POST', '/v1/funding-intents', { key: KEYS.alphaSecretTest, body: { amount: '25', asset: 'USDC' } });
    const stream = await openStatusStream(a.url, intent.body.id, await session(a, intent.body.id));
    await until(() => stream.statuses.length > 0);
    open.splice(open.indexOf(a), 1);
    // before, close() waited for the stream's payer to leave: for ever
    const closed = await Promise.race([a.close().then(() => 'closed'), new Promise((resolve) => setTimeout(() => resolve('still open'), 10_000))]);
    stream.close();
    expect(closed).toBe('closed');
    await stream.ended;
  });
});

describe('a server that lost the pipeline lease', () => {
  it('stores and sends no treasury transaction: the settlement waits for the lease holder', async () => {
    // attempts every 12 s: the server does not notice the lease is gone before the payment
    const start = cluster({ FUNDKIT_INSTANCE_TIMEOUT_MS: '60000', FUNDKIT_WORKER_INTERVAL_MS: '20', FUNDKIT_WORKER_BACKOFF_MS: '50' });
    const a = await start();
    const { sql } = a.server;
    const intent = await a.request('POST', '/v1/funding-intents', { key: KEYS.alphaSecretTest, body: { amount: '25', asset: 'USDC' } });
    const status = async () => (await a.request('GET', `/v1/funding-intents/${intent.body.id}`, { key: KEYS.alphaSecretTest })).body.status;
    await until(async () => (await status()) === 'AWAITING_PAYMENT');

    // another server, alive, has taken the pipeline over (as after this one stalled past the timeout)
    await run(sql, "INSERT INTO server_instances (id, host, pid, started_at, heartbeat_at) VALUES ('srv_other', 'elsewhere', 1, ?, ?)",
      new Date().toISOString(), new Date().toISOString());
    await run(sql, "UPDATE leases SET owner = 'srv_other' WHERE name = 'pipeline'");
    await a.request('POST', `/v1/test_helpers/funding-intents/${intent.body.id}/payments`, { key: KEYS.alphaSecretTest, body: { amount: '25', asset: 'USDC' } });
    // the server tried to send the settlement and its fence refused it (a condition, not a pause)
    await until(() => a.logs.some((line) => JSON.stringify(line).includes('the pipeline lease is held by srv_other')));
    expect(await status()).not.toBe('CREDITED');
    expect(await value(sql, 'SELECT COUNT(*) AS n FROM settlements WHERE envelope_xdr IS NOT NULL')).toBe(0);

    await run(sql, "UPDATE leases SET owner = ? WHERE name = 'pipeline'", a.server.instanceId);
    await until(async () => (await status()) === 'CREDITED');
  });
});

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
