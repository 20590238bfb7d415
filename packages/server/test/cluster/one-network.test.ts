/**
 * One network per database (stellar/followed-network.ts): servers, `fundkit treasury` and
 * `fundkit migrate` on one database follow one network. Servers each started as the README's
 * quickstart starts one (their own data folder, no FUNDKIT_SANDBOX_NETWORK) each start a sandbox
 * of their own: the second refuses, naming FUNDKIT_SANDBOX_NETWORK; servers pointed at one shared
 * `fundkit sandbox` start. Both engines: a SQLite file, or a fresh PostgreSQL database.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliIo } from '../../src/cli/index.js';
import { createServer, type FundkitServer } from '../../src/index.js';
import { startStandaloneSandbox } from '../../src/stellar/sandbox/standalone.js';
import { rows, run as runSql } from '../helpers/raw-sql.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const onPostgres = process.env.FUNDKIT_TEST_ENGINE === 'postgres';
const main = join(import.meta.dirname, '..', '..', 'src', 'main.ts');
const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** One database for several servers: a fresh PostgreSQL database, or a SQLite file. */
async function sharedDatabase(): Promise<Record<string, string>> {
  const dir = mkdtempSync(join(tmpdir(), 'fundkit-one-network-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  const database: Record<string, string> = onPostgres
    ? { FUNDKIT_DATABASE_URL: await (await import('../helpers/postgres.js')).freshPostgresDatabase('one_network') }
    : { FUNDKIT_DB: join(dir, 'fundkit.db'), FUNDKIT_DATABASE_URL: '' };
  return { ...database, FUNDKIT_MASTER_KEY: randomBytes(32).toString('hex'), FUNDKIT_OPERATOR_KEY: 'op_test_operator_key_0123456789abcdef' };
}

/**
 * A server's own data folder, as the quickstart gives each server: its sandbox file is there (on
 * PostgreSQL by default; beside a shared SQLite file the servers would share one, so it is named).
 */
function ownFolder(): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'fundkit-one-network-server-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return { FUNDKIT_DATA_DIR: dir, ...(onPostgres ? {} : { FUNDKIT_SANDBOX_DB: join(dir, 'sandbox.db') }) };
}

/** A server with no shared sandbox given: it starts its own (its thread), as `pnpm start` does. */
async function ownSandboxServer(database: Record<string, string>): Promise<FundkitServer> {
  const server = await createServer({ env: { ...database, ...ownFolder(), LOG_LEVEL: 'silent' }, bootstrap: null });
  // closed once, by the test or after it
  const closed = server.close.bind(server);
  let closing: Promise<void> | null = null;
  server.close = () => (closing ??= closed());
  cleanup.push(() => server.close());
  return server;
}

/** `fundkit …` through the CLI's entry point (argv in, exit code out). */
async function cli(argv: string[], env: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { stdout: (s) => void out.push(s), stderr: (s) => void err.push(s), env, cwd: tmpdir() };
  const code = await runCli(argv, io);
  return { code, stdout: out.join(''), stderr: err.join('') };
}

describe('servers on one database, each with a sandbox of its own', () => {
  it('the second refuses to start (exit 2), naming FUNDKIT_SANDBOX_NETWORK and `fundkit sandbox`', async () => {
    const database = await sharedDatabase();
    await ownSandboxServer(database);
    // the second as the quickstart starts it: `pnpm start` (main.ts) with its own data folder
    const child = spawn(process.execPath, ['--import', 'tsx', main], {
      env: { ...process.env, ...database, ...ownFolder(), PORT: '0', LOG_LEVEL: 'silent' }, cwd: join(import.meta.dirname, '..', '..', '..', '..'),
    });
    cleanup.push(() => child.kill('SIGKILL'));
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code, stderr).toBe(2);
    expect(stderr).toContain('fundkit-server: this database follows another sandbox chain than the one this server reaches');
    expect(stderr).toContain('its own sandbox thread');
    expect(stderr).toContain('FUNDKIT_SANDBOX_NETWORK=<its URL>');
    expect(stderr).toContain('pnpm fundkit sandbox');
  }, 240_000);

  it('two starting at once: one records its chain, the other refuses', async () => {
    const database = await sharedDatabase();
    const starts = await Promise.allSettled([ownSandboxServer(database), ownSandboxServer(database)]);
    const refused = starts.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
    expect(refused).toHaveLength(1);
    expect(String(refused[0]!.reason)).toContain('FUNDKIT_SANDBOX_NETWORK');
  }, 240_000);
});

describe('servers on one database and one shared `fundkit sandbox`', () => {
  it('both start, and the database records the shared chain once', async () => {
    const sandbox = await startStandaloneSandbox({ dbPath: ':memory:', port: 0, ledgerSeconds: 0 });
    cleanup.push(() => sandbox.close());
    const database = await sharedDatabase();
    const servers: TestServer[] = [];
    for (let i = 0; i < 2; i++) {
      const server = await startTestServer({ env: { ...database, ...ownFolder(), FUNDKIT_SANDBOX_NETWORK: sandbox.url } });
      cleanup.push(() => server.close());
      servers.push(server);
    }
    const recorded = await rows(servers[1]!.server.sql, 'SELECT kind, first_ledger, first_ledger_hash, source FROM followed_network');
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ kind: 'sandbox', first_ledger_hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(recorded[0]!.source).toContain(sandbox.url);
  }, 240_000);

  it('a database from before the record (upgraded) records on its next start instead of refusing', async () => {
    const sandbox = await startStandaloneSandbox({ dbPath: ':memory:', port: 0, ledgerSeconds: 0 });
    cleanup.push(() => sandbox.close());
    const database = await sharedDatabase();
    const first = await ownSandboxServer(database);
    // as a database migrated to 033 by this version, whose first start has not recorded yet
    await runSql(first.sql, 'DELETE FROM followed_network');
    const second = await startTestServer({ env: { ...database, ...ownFolder(), FUNDKIT_SANDBOX_NETWORK: sandbox.url } });
    cleanup.push(() => second.close());
    const recorded = await rows(second.server.sql, 'SELECT source FROM followed_network');
    expect(recorded.map((r) => r.source)).toEqual([expect.stringContaining(sandbox.url)]);
  }, 240_000);
});

describe('a database first used in sandbox mode, pointed at testnet', () => {
  let horizon: Server;
  let horizonUrl: string;
  beforeAll(async () => {
    // a testnet Horizon that knows no account and whose friendbot is down: nothing here must reach it
    horizon = createHttpServer((_req, res) => res.writeHead(404, { 'content-type': 'application/problem+json' })
      .end(JSON.stringify({ type: 'https://stellar.org/horizon-errors/not_found', title: 'Resource Missing', status: 404, detail: 'not found' })));
    await new Promise<void>((resolve) => horizon.listen(0, '127.0.0.1', resolve));
    horizonUrl = `http://127.0.0.1:${(horizon.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => horizon.close(resolve)));

  const testnet = (database: Record<string, string>) => ({
    ...database, ...ownFolder(), FUNDKIT_STELLAR: 'testnet', FUNDKIT_HORIZON_URL: horizonUrl, FUNDKIT_FRIENDBOT_URL: `${horizonUrl}/friendbot`,
    FUNDKIT_DEPOSIT_POOL_SIZE: '0', FUNDKIT_TREASURY_CHANNELS: '1',
  });

  it('fundkit treasury --fund says the database follows the sandbox (exit 1), never a constraint error', async () => {
    const database = await sharedDatabase();
    await (await ownSandboxServer(database)).close();
    const run = await cli(['treasury', '--fund'], testnet(database));
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain('fundkit: this database follows the sandbox network ("Standalone Network ; February 2017"');
    expect(run.stderr).toContain('but fundkit treasury reaches the testnet network');
    expect(run.stderr).toContain('give testnet its own database');
    expect(run.stderr).not.toMatch(/duplicate key|UNIQUE constraint/);
  }, 240_000);

  it('the same on a database from before the record: its treasury key names the sandbox', async () => {
    const database = await sharedDatabase();
    const first = await ownSandboxServer(database);
    await runSql(first.sql, 'DELETE FROM followed_network');
    await first.close();
    const run = await cli(['treasury', '--fund'], testnet(database));
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain("fundkit: this database's treasury key is for the sandbox network, not testnet");
    expect(run.stderr).not.toMatch(/duplicate key|UNIQUE constraint/);
  }, 240_000);

  it('fundkit migrate refuses (exit 1) before migrating; without FUNDKIT_STELLAR it names no network and migrates', async () => {
    const database = await sharedDatabase();
    await (await ownSandboxServer(database)).close();
    const refused = await cli(['migrate'], testnet(database));
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toContain('fundkit: this database follows the sandbox network');
    expect(refused.stderr).toContain('but fundkit migrate reaches the testnet network');
    const plain = await cli(['migrate'], database);
    expect(plain.code, plain.stderr).toBe(0);
  }, 240_000);
});
