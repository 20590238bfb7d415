/**
 * The sandbox treasury at start, on one database (a SQLite file, or a fresh PostgreSQL database
 * under FUNDKIT_TEST_ENGINE=postgres) shared with a `fundkit sandbox`: servers starting at once
 * keep one treasury key, and each start funds what the treasury lacks (a start cut short before
 * funding it, an empty float), so no database is left with an unfunded treasury for good.
 */
import { createServer as createHttpServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startStandaloneSandbox } from '@fundkit/sandbox';
import { runCli, type CliIo } from '../../src/cli/index.js';
import { loadConfig } from '../../src/config.js';
import { openDataStore } from '../../src/db/store.js';
import { createServer, type FundkitServer } from '../../src/index.js';
import { treasuryKey } from '../../src/pipeline/stellar.js';
import { rows } from '../helpers/raw-sql.js';
import { DEFAULT_BOOTSTRAP, startTestServer } from '../helpers/server.js';
import { FAST_ENV } from '../pipeline/helpers.js';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  // servers before the sandbox they reach
  for (const item of open.splice(0).reverse()) await item.close();
});

/** A fresh database on a new `fundkit sandbox`; `env(name)` is a server's (or the CLI's) configuration, with a data folder of its own. */
async function sandboxDatabase(): Promise<{ url: string; env: (name: string, extra?: Record<string, string>) => Record<string, string> }> {
  const dir = mkdtempSync(join(tmpdir(), 'fundkit-treasury-start-'));
  const net = await startStandaloneSandbox({ dbPath: ':memory:', port: 0 });
  open.push(net);
  const shared: Record<string, string> = {
    ...FAST_ENV, FUNDKIT_DB: join(dir, 'fundkit.db'), FUNDKIT_MASTER_KEY: 'cd'.repeat(32), FUNDKIT_SANDBOX_NETWORK: net.url,
    FUNDKIT_DEPOSIT_POOL_SIZE: '0', FUNDKIT_TREASURY_CHANNELS: '1', LOG_LEVEL: 'silent',
    ...(process.env.FUNDKIT_TEST_ENGINE === 'postgres' ? { FUNDKIT_DATABASE_URL: await (await import('../helpers/postgres.js')).freshPostgresDatabase('treasury_start') } : {}),
  };
  return { url: net.url, env: (name, extra = {}) => ({ ...shared, FUNDKIT_DATA_DIR: join(dir, name), ...extra }) };
}

/** `fundkit treasury --json [more]`: the treasury as the database and the chain have it. */
async function report(env: Record<string, string>, more: string[] = []) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { stdout: (s) => void out.push(s), stderr: (s) => void err.push(s), env, cwd: tmpdir() };
  const code = await runCli(['treasury', '--json', ...more], io);
  expect(out.join(''), `exit ${code}: ${err.join('')}`).not.toBe('');
  return JSON.parse(out.join('')) as { address: string; exists: boolean; xlm: string; trustlines: Array<{ asset: string; balance: string | null }> };
}

const floats = (r: Awaited<ReturnType<typeof report>>) => r.trustlines.map((l) => [l.asset, l.balance]);
const treasuryOf = (server: FundkitServer) => server.services.pipeline.pipeline.stellar!.treasury.publicKey();

/** A server that starts and stops, as one cut short after its start (nothing runs between the two). */
async function startAndStop(env: Record<string, string>): Promise<void> {
  await (await startTestServer({ env })).close();
}

describe('the sandbox treasury at start', () => {
  it('two servers and fundkit treasury started at the same moment on a new database all start, with one treasury', async () => {
    const db = await sandboxDatabase();
    // migrated beforehand, so the starts reach the key together instead of one after the other behind the migration lock
    // (they still may not overlap: SQLite's driver is synchronous, and the next test is the one that makes them)
    await (await openDataStore(loadConfig(db.env('m')), pino({ level: 'silent' }))).close();
    const servers = [0, 1].map((i) => createServer({ env: db.env(`s${i}`), logger: pino({ level: 'silent' }), bootstrap: DEFAULT_BOOTSTRAP }));
    const cli = report(db.env('cli'));
    const starts = await Promise.allSettled(servers);
    for (const s of starts) if (s.status === 'fulfilled') open.push(s.value);
    expect(starts.map((s) => (s.status === 'rejected' ? String(s.reason) : 'started'))).toEqual(['started', 'started']);
    const [a, b] = starts.map((s) => treasuryOf((s as PromiseFulfilledResult<FundkitServer>).value));
    expect(b).toBe(a);
    expect((await cli).address).toBe(a);
    // funded (perhaps by more than one of them: the faucet adds, which is no harm)
    const after = await report(db.env('cli'));
    expect(after.address).toBe(a);
    expect(after.exists).toBe(true);
  });

  it('key creation is race-safe: of creations that overlap, each reading "no key" before any writes, all keep the one key that won', async () => {
    // the servers above may reach it one after the other (one process, one event loop): here they overlap
    const db = await sandboxDatabase();
    const store = await openDataStore(loadConfig(db.env('race')), pino({ level: 'silent' }));
    open.push(store);
    // on PostgreSQL, a connection each, opened beforehand: else the first creation runs on the one idle connection while the others connect
    await Promise.all([0, 1, 2, 3].map(() => rows(store.sql, 'SELECT 1')));
    const made = await Promise.allSettled([0, 1, 2, 3].map(() => treasuryKey(store.sql, Buffer.alloc(32, 7), 'sandbox')));
    expect(made.map((m) => (m.status === 'rejected' ? String(m.reason) : 'made'))).toEqual(['made', 'made', 'made', 'made']);
    const keys = made.map((m) => (m as PromiseFulfilledResult<{ publicKey(): string }>).value.publicKey());
    expect(new Set(keys).size).toBe(1);
  });

  it('a treasury left unfunded by an earlier start (cut short before funding it) is funded at the next start', async () => {
    const db = await sandboxDatabase();
    const off = { FUNDKIT_SANDBOX_FUND_TREASURY: 'off' };
    // the network recorded and the key made, the treasury not funded: what a start killed in between leaves
    await startAndStop(db.env('a', off));
    expect(await report(db.env('cli', off))).toMatchObject({ exists: false, xlm: '0.0000000' });
    await startAndStop(db.env('a'));
    const funded = await report(db.env('cli', off));
    // 1,000,000 XLM (less the channel account the server then made from it)
    expect(funded.exists).toBe(true);
    expect(Number(funded.xlm)).toBeGreaterThan(999_000);
    expect(floats(funded)).toEqual([['USDC', '1000000.0000000'], ['EURC', '1000000.0000000']]);
  });

  it('an empty float is topped up at the next start; an account that exists gets no XLM', async () => {
    const db = await sandboxDatabase();
    const off = { FUNDKIT_SANDBOX_FUND_TREASURY: 'off' };
    await startAndStop(db.env('a', off));
    // the friendbot's 10,000 XLM, empty trustlines and a channel, as `fundkit treasury --fund` leaves a testnet treasury
    await report(db.env('cli', off), ['--fund']);
    const before = await report(db.env('cli', off));
    expect(floats(before)).toEqual([['USDC', '0.0000000'], ['EURC', '0.0000000']]);
    await startAndStop(db.env('a'));
    const after = await report(db.env('cli', off));
    expect(floats(after)).toEqual([['USDC', '1000000.0000000'], ['EURC', '1000000.0000000']]);
    expect(after.xlm).toBe(before.xlm);
  });

  it('a faucet that fails does not stop the start; the next start funds the treasury', async () => {
    const db = await sandboxDatabase();
    const broken = await faucetDown(db.url);
    await startAndStop(db.env('a', { FUNDKIT_SANDBOX_NETWORK: broken.url }));
    expect(broken.refused).toBeGreaterThan(0);
    expect((await report(db.env('cli', { FUNDKIT_SANDBOX_FUND_TREASURY: 'off' }))).exists).toBe(false);
    await startAndStop(db.env('a'));
    expect((await report(db.env('cli', { FUNDKIT_SANDBOX_FUND_TREASURY: 'off' }))).exists).toBe(true);
  });
});

/**
 * The sandbox at `url` with its faucet answering 503 (everything else forwarded, streams
 * included). A database knows its sandbox by its chain (its oldest ledger), not by the URL it was
 * reached at, so a later start may reach the same sandbox directly.
 */
async function faucetDown(url: string): Promise<{ url: string; refused: number }> {
  const target = new URL(url);
  const state = { url: '', refused: 0 };
  const server = createHttpServer((req, res) => {
    if (req.method === 'POST' && req.url?.startsWith('/sandbox/faucet')) {
      state.refused++;
      res.writeHead(503, { 'content-type': 'text/plain' }).end('faucet down');
      return;
    }
    const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  open.push({ close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) });
  return state;
}
