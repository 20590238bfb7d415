/**
 * One network per database (issue 40, item 4): the database records the network it follows (a
 * sandbox chain, a real network's passphrase; an older database's in-process sandbox), and a server or `fundkit
 * treasury` on another one refuses to start, saying what to do, instead of making deposit
 * accounts on a chain the other servers do not watch. On either engine: a SQLite file, or one
 * PostgreSQL database under FUNDKIT_TEST_ENGINE=postgres.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli, type CliIo } from '../../src/cli/index.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { openDataStore } from '../../src/db/store.js';
import { createServer, type FundkitServer } from '../../src/index.js';
import { followNetwork } from '../../src/pipeline/network-identity.js';
import { startStandaloneSandbox, type StandaloneSandbox } from '@fundkit/sandbox';
import { run } from '../helpers/raw-sql.js';
import { DEFAULT_BOOTSTRAP, startTestServer, type TestServer } from '../helpers/server.js';
import { createIntent, FAST_ENV, pay, waitForIntent } from '../pipeline/helpers.js';

const silent = pino({ level: 'silent' });
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  // servers before the sandboxes they reach
  for (const item of open.splice(0).reverse()) await item.close();
});

/** One database (a SQLite file, or a fresh PostgreSQL database) and, per server, a data folder of its own. */
async function database(): Promise<{ env: Record<string, string>; server: (name: string) => Record<string, string> }> {
  const dir = mkdtempSync(join(tmpdir(), 'fundkit-one-network-'));
  const env: Record<string, string> = {
    ...FAST_ENV, FUNDKIT_DB: join(dir, 'fundkit.db'), FUNDKIT_MASTER_KEY: 'ab'.repeat(32), FUNDKIT_OPERATOR_KEY: 'op_test_operator_key_0123456789abcdef', LOG_LEVEL: 'silent',
    ...(process.env.FUNDKIT_TEST_ENGINE === 'postgres' ? { FUNDKIT_DATABASE_URL: await (await import('../helpers/postgres.js')).freshPostgresDatabase('one_network') } : {}),
  };
  // each server its own data folder, and so its own sandbox thread file (the default on PostgreSQL)
  const server = (name: string) => ({ ...env, FUNDKIT_DATA_DIR: join(dir, name), FUNDKIT_SANDBOX_DB: join(dir, name, 'fundkit.sandbox.db') });
  return { env, server };
}

async function sandbox(): Promise<StandaloneSandbox> {
  const net = await startStandaloneSandbox({ dbPath: ':memory:', port: 0 });
  open.push(net);
  return net;
}

async function serve(env: Record<string, string>): Promise<TestServer> {
  const t = await startTestServer({ env });
  open.push(t);
  return t;
}

/** A server that starts, records its network in the database, and stops. */
async function startAndStop(env: Record<string, string>): Promise<void> {
  await (await startTestServer({ env })).close();
}

/** createServer's refusal (a ConfigError: `fundkit-server` prints it and exits 2), or the server it did start. */
async function refusal(env: Record<string, string>): Promise<string> {
  let server: FundkitServer;
  try {
    server = await createServer({ env, logger: silent, bootstrap: DEFAULT_BOOTSTRAP });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  open.push(server);
  throw new Error('the server started');
}

async function paysThrough(t: TestServer): Promise<void> {
  const intent = await createIntent(t, { amount: '4' });
  await pay(t, intent.id, '4');
  await waitForIntent(t, intent.id, (i) => i.status === 'CREDITED', 20_000);
}

function cli(argv: string[], env: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { stdout: (s) => void out.push(s), stderr: (s) => void err.push(s), env, cwd: tmpdir() };
  return { done: runCli(argv, io), stdout: () => out.join(''), stderr: () => err.join('') };
}

describe('servers on one database in sandbox mode', () => {
  it('each with its own sandbox thread: the second refuses to start, naming FUNDKIT_SANDBOX_NETWORK; the first keeps working', async () => {
    const db = await database();
    const first = await serve({ ...db.server('a'), FUNDKIT_SANDBOX_NETWORK: 'thread' });
    // FUNDKIT_SANDBOX_NETWORK unset, as in the issue: a thread of its own, on a chain of its own
    const message = await refusal(db.server('b'));
    expect(message).toMatch(/this database follows its own sandbox thread \(chain file .*[/\\]a[/\\]fundkit\.sandbox\.db\)/);
    expect(message).toMatch(/this server reached its own sandbox thread \(chain file .*[/\\]b[/\\]fundkit\.sandbox\.db\).*another chain/);
    expect(message).toContain('`pnpm fundkit sandbox --db ');
    expect(message).toContain('set FUNDKIT_SANDBOX_NETWORK=<its URL>');
    await paysThrough(first);
  });

  it('a sandbox thread whose chain file was deleted starts a new chain: the server refuses, saying so', async () => {
    const db = await database();
    const env: Record<string, string> = { ...db.server('a'), FUNDKIT_SANDBOX_NETWORK: 'thread' };
    await startAndStop(env);
    for (const suffix of ['', '-wal', '-shm']) rmSync(env.FUNDKIT_SANDBOX_DB + suffix, { force: true });
    expect(await refusal(env)).toMatch(/the chain in that file now is another one .*the file was deleted or replaced.*fresh database/s);
  });

  it('on one shared sandbox at a URL: both start, and a payment made through one is credited on the other', async () => {
    const db = await database();
    const net = await sandbox();
    const a = await serve({ ...db.server('a'), FUNDKIT_SANDBOX_NETWORK: net.url });
    const b = await serve({ ...db.server('b'), FUNDKIT_SANDBOX_NETWORK: net.url });
    const intent = await createIntent(a, { amount: '3' });
    await pay(b, intent.id, '3');
    await waitForIntent(b, intent.id, (i) => i.status === 'CREDITED', 20_000);
  });

  it('a server on another sandbox than the recorded one refuses, even one whose chain started in the same second', async () => {
    const db = await database();
    // two fresh chains with the same clock: only the sandbox's random genesis tells them apart
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-01-02T03:04:05Z') });
    let ours: StandaloneSandbox;
    let other: StandaloneSandbox;
    try {
      ours = await sandbox();
      other = await sandbox();
    } finally {
      vi.useRealTimers();
    }
    await serve({ ...db.server('a'), FUNDKIT_SANDBOX_NETWORK: ours.url });
    const message = await refusal({ ...db.server('b'), FUNDKIT_SANDBOX_NETWORK: other.url });
    expect(message).toContain(`this database follows the sandbox at ${ours.url}`);
    expect(message).toContain(`Set FUNDKIT_SANDBOX_NETWORK=${ours.url} on this server`);
  });

  it('started at once on two sandboxes: one starts and the other refuses', async () => {
    const db = await database();
    const [x, y] = [await sandbox(), await sandbox()];
    const starts = await Promise.allSettled([x, y].map((net, i) => createServer({ env: { ...db.server(`s${i}`), FUNDKIT_SANDBOX_NETWORK: net.url }, logger: silent, bootstrap: DEFAULT_BOOTSTRAP })));
    for (const s of starts) if (s.status === 'fulfilled') open.push(s.value);
    expect(starts.filter((s) => s.status === 'fulfilled')).toHaveLength(1);
    const refused = starts.find((s): s is PromiseRejectedResult => s.status === 'rejected')!;
    expect(refused.reason).toBeInstanceOf(ConfigError);
    expect(String(refused.reason.message)).toContain('FUNDKIT_SANDBOX_NETWORK=');
  });

  it('recording is race-safe: of checks that run at once for different chains, exactly one is recorded and the others refused', async () => {
    // the servers above may reach the check one after the other (one process, one event loop):
    // here the checks overlap, each reading "nothing recorded" before any writes
    const db = await database();
    const store = await openDataStore(loadConfig(db.server('race')), silent);
    open.push(store);
    const chain = (i: number) => ({ passphrase: 'Standalone Network ; February 2017', identity: `chain-${i}`, source: `url:http://127.0.0.1:${9000 + i}`, kind: 'sandbox' });
    const checks = await Promise.allSettled([0, 1, 2, 3].map((i) => followNetwork(store.sql, chain(i))));
    expect(checks.filter((c) => c.status === 'fulfilled')).toHaveLength(1);
    for (const c of checks) if (c.status === 'rejected') expect(c.reason).toBeInstanceOf(ConfigError);
  });

  it('a database that recorded the in-process sandbox (removed) refuses a server on a sandbox, saying to start on a fresh database', async () => {
    // the row an older server in in-process mode wrote; its chain's tables are another test's (db/legacy-sandbox.test.ts)
    const old = await database();
    const store = await openDataStore(loadConfig(old.server('old')), silent);
    await run(store.sql, 'INSERT INTO network_identity (id, passphrase, identity, source, recorded_at) VALUES (1, ?, ?, ?, ?)',
      'Standalone Network ; February 2017', 'in-process', 'in-process:', '2026-01-01T00:00:00.000Z');
    await store.close();
    const net = await sandbox();
    expect(await refusal({ ...old.server('b'), FUNDKIT_SANDBOX_NETWORK: net.url }))
      .toMatch(/follows the in-process sandbox \(removed.*recorded 2026-01-01.*another chain.*start over on a fresh database \(FUNDKIT_DB \/ FUNDKIT_DATABASE_URL\)/s);
  });

  it('a server configured for testnet on a sandbox database refuses, naming both networks', async () => {
    const db = await database();
    const net = await sandbox();
    await startAndStop({ ...db.server('a'), FUNDKIT_SANDBOX_NETWORK: net.url });
    const message = await refusal({ ...db.server('b'), FUNDKIT_STELLAR: 'testnet', FUNDKIT_RPC_URL: 'http://127.0.0.1:9/rpc' });
    expect(message).toContain('on the network "Standalone Network ; February 2017"; this is configured for "Test SDF Network ; September 2015"');
    expect(message).toContain('FUNDKIT_STELLAR');
  });
});

describe('fundkit treasury on a database that follows another network', () => {
  it('--fund for testnet on a database first used in sandbox mode: refused with what to do (exit 2), no duplicate key', async () => {
    const db = await database();
    const net = await sandbox();
    await startAndStop({ ...db.server('a'), FUNDKIT_SANDBOX_NETWORK: net.url });
    const run = cli(['treasury', '--fund'], { ...db.server('b'), FUNDKIT_STELLAR: 'testnet', FUNDKIT_RPC_URL: 'http://127.0.0.1:9/rpc' });
    expect(await run.done, run.stderr()).toBe(2);
    expect(run.stderr()).toMatch(/^fundkit: this database follows the sandbox at .*configured for "Test SDF Network ; September 2015"/);
    expect(run.stderr()).not.toContain('duplicate key');
  });

  it('on another sandbox than the recorded one: refused (exit 2); on the recorded one it reports the treasury', async () => {
    const db = await database();
    const [ours, other] = [await sandbox(), await sandbox()];
    await startAndStop({ ...db.server('a'), FUNDKIT_SANDBOX_NETWORK: ours.url });
    const refused = cli(['treasury', '--fund'], { ...db.server('b'), FUNDKIT_SANDBOX_NETWORK: other.url });
    expect(await refused.done, refused.stderr()).toBe(2);
    expect(refused.stderr()).toContain(`Set FUNDKIT_SANDBOX_NETWORK=${ours.url}`);
    const report = cli(['treasury'], { ...db.server('b'), FUNDKIT_SANDBOX_NETWORK: ours.url });
    expect(await report.done, report.stderr()).toBe(0);
    expect(report.stdout()).toContain('Treasury (sandbox)');
  });
});
