/**
 * kill -9 mid-delivery, several times, while payments make events: after the last restart every
 * event reaches the receiver at least once and the database invariants hold. The server runs as
 * the webhooks tests' crash child (short lease, file database), with the pipeline
 * crash helpers (kill) and invariants.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../packages/server/src/config.js';
import type { Sql } from '../../packages/server/src/db/sql.js';
import { openDataStore } from '../../packages/server/src/db/store.js';
import { kill } from '../../packages/server/test/crash/child.js';
import { chainIn } from '../../packages/server/test/crash/invariants.js';
import { rows } from '../../packages/server/test/helpers/raw-sql.js';
import { KEYS } from '../../packages/server/test/helpers/server.js';
import { checkDatabase } from './invariants.js';
import { startFaultyReceiver } from './receiver.js';

const SERVER = join(dirname(fileURLToPath(import.meta.url)), '../../packages/server');
const key = KEYS.alphaSecretTest;
const ROUNDS = 3;
const dir = mkdtempSync(join(tmpdir(), 'fundkit-rel-crash-'));
const env: Record<string, string> = {
  FUNDKIT_DB: join(dir, 'fundkit.db'), FUNDKIT_DATA_DIR: dir, FUNDKIT_MASTER_KEY: randomBytes(32).toString('hex'), LOG_LEVEL: 'silent',
  FUNDKIT_WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s,1s,1s,1s,1s,1s,1s,1s',
  FUNDKIT_WORKER_INTERVAL_MS: '20', FUNDKIT_BACKFILL_INTERVAL_MS: '100', FUNDKIT_WORKER_BACKOFF_MS: '20',
};
// the e2e-postgres project (FUNDKIT_TEST_ENGINE=postgres): every server process on one PostgreSQL database
beforeAll(async () => {
  if (process.env.FUNDKIT_TEST_ENGINE !== 'postgres') return;
  const { freshPostgresDatabase } = await import('../../packages/server/test/helpers/postgres.js');
  env.FUNDKIT_DATABASE_URL = await freshPostgresDatabase('webhook_crash');
});
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** packages/server/test/webhooks/crash-server.ts prints {"url"} once listening (lease 1.5 s). */
function start(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/webhooks/crash-server.ts'], { cwd: SERVER, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve({ child, url: (JSON.parse(out.split('\n')[0]!) as { url: string }).url });
    });
    child.once('exit', (code) => reject(new Error(`server exited early (${code})`)));
  });
}

async function call(url: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(url + path, { method, headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  return res.json().catch(() => null);
}

/** the pipeline crash test's kill: signal, then wait for the exit */
const kill9 = (child: ChildProcess) => kill({ process: child, url: '', stderr: [] }, 'SIGKILL');

/** The servers' database, whichever engine they run on, opened by the test beside them. */
async function withDatabase<T>(read: (sql: Sql) => Promise<T>): Promise<T> {
  // it only logs a lost connection, which the read then reports itself
  const store = await openDataStore(loadConfig(env), { warn: () => undefined } as unknown as Parameters<typeof openDataStore>[1]);
  try {
    return await read(store.sql);
  } finally {
    await store.close();
  }
}

const events = () => withDatabase(async (sql) => (await rows<{ id: string }>(sql, 'SELECT id FROM events')).map((r) => r.id));

describe('webhook deliveries across kill -9', () => {
  it(`every event is delivered at least once after ${ROUNDS} crashes mid-delivery`, async () => {
    // slow answers keep attempts in flight, so each kill lands mid-delivery
    const receiver = await startFaultyReceiver('slow');
    let { child, url } = await start();
    await call(url, 'POST', '/v1/webhooks', { url: receiver.url, events: ['payment.pending', 'payment.processing', 'payment.completed', 'invoice.paid', 'payout.initiated', 'payout.completed'] });
    for (let round = 0; round < ROUNDS; round++) {
      const before = receiver.requests.length;
      await Promise.allSettled([1, 2, 3].map(async () => {
        const intent = await call(url, 'POST', '/v1/funding-intents', { amount: '5', asset: 'USDC' });
        await call(url, 'POST', `/v1/test_helpers/funding-intents/${intent.id}/payments`, { amount: '5', asset: 'USDC' });
      }));
      const until = Date.now() + 5_000;
      while (receiver.requests.length === before && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
      await kill9(child);
      ({ child, url } = await start());
    }
    const deadline = Date.now() + 30_000;
    let missing: string[] = [];
    do {
      await new Promise((r) => setTimeout(r, 200));
      missing = (await events()).filter((id) => !receiver.delivered.has(id));
    } while (missing.length > 0 && Date.now() < deadline);
    expect(missing).toEqual([]);
    expect((await events()).length).toBeGreaterThanOrEqual(ROUNDS * 3 * 2);
    await kill9(child);
    try {
      // the sandbox network ran in each server's thread, on its own file beside the database
      const chainFile = new Database(join(dir, 'fundkit.sandbox.db'), { readonly: true });
      try {
        expect(await withDatabase((sql) => checkDatabase(sql, chainIn(chainFile)))).toEqual([]);
      } finally {
        chainFile.close();
      }
    } finally {
      await receiver.close();
    }
    // three restarts (each a process start) and a 30 s delivery deadline: 52 s alone on a quiet
    // machine, past 60 s on a loaded one (base and this change alike); the waits above are for
    // conditions, this bound only stops a run that never meets them
  }, 180_000);
});
