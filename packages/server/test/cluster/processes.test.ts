/**
 * Real server processes on one database file, one of them killed with SIGKILL: the payment
 * pipeline it ran is taken over by another once its heartbeat is older than the instance
 * timeout, and a payment made after the kill is still credited, once.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { startStandaloneSandbox } from '@fundkit/sandbox';
import { freePort, kill, startChild, type Child } from '../crash/child.js';

const KEY = 'sk_test_clusterSecretKey00000000001';
const dir = mkdtempSync(join(tmpdir(), 'fundkit-processes-'));
const children: Child[] = [];
// servers on one database share one sandbox: a `fundkit sandbox` each reaches at its URL
const sandbox = await startStandaloneSandbox({ dbPath: ':memory:', port: 0 });
afterAll(async () => {
  for (const child of children) await kill(child, 'SIGKILL');
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = {
  FUNDKIT_DB: join(dir, 'fundkit.db'), FUNDKIT_DATA_DIR: dir, FUNDKIT_SANDBOX_NETWORK: sandbox.url, FUNDKIT_BOOTSTRAP: join(dir, 'bootstrap.json'), FUNDKIT_MASTER_KEY: 'ab'.repeat(32),
  LOG_LEVEL: 'silent', FUNDKIT_INSTANCE_TIMEOUT_MS: '1000', FUNDKIT_WORKER_INTERVAL_MS: '20', FUNDKIT_BACKFILL_INTERVAL_MS: '100',
};
writeFileSync(env.FUNDKIT_BOOTSTRAP, JSON.stringify({ applications: [{ name: 'Cluster', secret_keys: [KEY], settlement_address: 'GDVEU3DD4KOFECV66VIHWEZOYX4ZKR3WV27L464SIIPOU2IUI3JCZA57' }] }));

async function call(child: Child, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(child.url + path, {
    method, headers: { authorization: `Bearer ${KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json() };
}

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function read<T>(sql: string, ...params: unknown[]): T | undefined {
  const db = new Database(env.FUNDKIT_DB, { readonly: true });
  try {
    return db.prepare(sql).get(...params) as T | undefined;
  } finally {
    db.close();
  }
}

const pipelineHolderPid = () => read<{ pid: number }>(`SELECT s.pid FROM leases l JOIN server_instances s ON s.id = l.owner WHERE l.name = 'pipeline'`)?.pid;

it('a server killed with SIGKILL: another takes its pipeline over, and a payment made after the kill is credited once', async () => {
  const a = await startChild(env, await freePort());
  children.push(a);
  const b = await startChild(env, await freePort());
  children.push(b);
  expect(pipelineHolderPid()).toBe(a.process.pid);

  await kill(a, 'SIGKILL');
  // b takes the pipeline once a's heartbeat is older than the timeout (1 s), at one of its beats:
  // not before (measured from a's last heartbeat, which a late beat on loaded cores moves too)
  const lastBeat = Date.parse(read<{ at: string }>('SELECT heartbeat_at AS at FROM server_instances WHERE pid = ?', a.process.pid)!.at);
  const holder = pipelineHolderPid();
  if (Date.now() < lastBeat + 1_000) expect(holder).toBe(a.process.pid);
  await until(() => pipelineHolderPid() === b.process.pid, 10_000);
  expect(Date.now()).toBeGreaterThanOrEqual(lastBeat + 1_000);
  const intent = await call(b, 'POST', '/v1/funding-intents', { amount: '25', asset: 'USDC' });
  expect(intent.status).toBe(201);
  const id = intent.body.id as string;
  await until(async () => (await call(b, 'GET', `/v1/funding-intents/${id}`)).body.status === 'AWAITING_PAYMENT');
  expect((await call(b, 'POST', `/v1/test_helpers/funding-intents/${id}/payments`, { amount: '25', asset: 'USDC' })).status).toBeLessThan(300);
  await until(async () => (await call(b, 'GET', `/v1/funding-intents/${id}`)).body.status === 'CREDITED');

  expect(read<{ n: number }>('SELECT COUNT(*) AS n FROM payments WHERE funding_intent_id = ?', id)!.n).toBe(1);
  expect(read<{ n: number }>("SELECT COUNT(*) AS n FROM ledger_entries WHERE funding_intent_id = ? AND type = 'INTENT_CREDIT' AND account = 'APPLICATION_BALANCE'", id)!.n).toBe(1);
}, 90_000);
