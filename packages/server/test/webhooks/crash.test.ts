import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { verifyWebhook } from '@fundkit/webhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { startStandaloneSandbox } from '@fundkit/sandbox';
import { KEYS, startTestServer, type TestServer } from '../helpers/server.js';
import { eventually, startReceiver, type Receiver } from './receiver.js';

const here = dirname(fileURLToPath(import.meta.url));
const key = KEYS.alphaSecretTest;
const cleanup: (() => Promise<unknown> | void)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

function startChild(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'crash-server.ts')], {
    cwd: join(here, '../..'), env: { ...process.env, ...env, LOG_LEVEL: 'silent' }, stdio: ['ignore', 'pipe', 'inherit'],
  });
  cleanup.push(() => void child.kill('SIGKILL'));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n')) resolve({ child, url: (JSON.parse(line!) as { url: string }).url });
    });
    child.on('exit', (code) => reject(new Error(`server process exited early (${code})`)));
  });
}

async function call(url: string, method: string, path: string, body?: unknown) {
  const res = await fetch(url + path, {
    method, headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined,
  });
  return res.json() as Promise<any>;
}

/**
 * Starts a server process, has it claim a delivery whose receiver never answers, kills it with
 * SIGKILL, starts `restart` on the same database and returns what the receiver got within 10 s.
 */
async function killMidDelivery(childEnv: Record<string, string>, restart: (env: Record<string, string>) => Promise<TestServer>) {
  const dir = mkdtempSync(join(tmpdir(), 'fundkit-crash-'));
  // one sandbox for both servers, as servers on one database share one (a database follows one chain)
  const sandbox = await startStandaloneSandbox({ dbPath: ':memory:', port: 0 });
  cleanup.push(() => sandbox.close());
  const env: Record<string, string> = {
    FUNDKIT_DB: join(dir, 'fundkit.db'), FUNDKIT_DATA_DIR: dir, FUNDKIT_MASTER_KEY: randomBytes(32).toString('hex'), FUNDKIT_SANDBOX_NETWORK: sandbox.url,
  };
  // on PostgreSQL, one database for the killed server and the restarted one
  if (process.env.FUNDKIT_TEST_ENGINE === 'postgres') env.FUNDKIT_DATABASE_URL = await (await import('../helpers/postgres.js')).freshPostgresDatabase('webhook_crash');
  // the first request is never answered: the server dies holding it
  const receiver: Receiver = await startReceiver((n) => (n === 0 ? 'hang' : { status: 200, body: 'ok' }));
  cleanup.push(() => receiver.close());

  const { child, url } = await startChild({ ...env, ...childEnv });
  const endpoint = await call(url, 'POST', '/v1/webhooks', { url: receiver.url, events: ['payment.pending'] });
  const delivery = await call(url, 'POST', `/v1/webhooks/${endpoint.id}/test`);
  await receiver.waitFor(1);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;

  const restarted = await restart(env);
  cleanup.push(() => restarted.close());
  const [first, second] = await receiver.waitFor(2, 10_000);
  return { restarted, endpoint, delivery, first: first!, second: second! };
}

describe('a server killed mid-delivery', () => {
  // 60 s: it starts a server process from source (tsx), seconds alone, several times that on busy cores
  it('loses nothing: the restarted server re-claims the expired lease and delivers', async () => {
    const { restarted, endpoint, delivery, first, second } = await killMidDelivery({}, (env) => startTestServer({ env, webhooks: { leaseMs: 1_500 } }));
    expect(second.headers['service-webhook-id']).toBe(first.headers['service-webhook-id']);
    expect(second.headers['service-webhook-attempt']).toBe('2');
    await expect(verifyWebhook(second.body, second.headers as Record<string, string>, endpoint.secret)).resolves.toMatchObject({ type: 'webhook.test' });
    const done = await eventually(async () => {
      const page = await restarted.request('GET', `/v1/webhooks/${endpoint.id}/deliveries`, { key });
      const found = page.body.data.find((d: { id: string }) => d.id === delivery.id);
      return found?.status === 'SUCCEEDED' ? found : undefined;
    });
    // attempt 1 died with the process (no answer was ever recorded); attempt 2 is the redelivery
    expect(done.attempts.map((a: { number: number; status_code: number }) => [a.number, a.status_code])).toEqual([[2, 200]]);
  }, 60_000);

  it('takes the claim over once the killed server’s heartbeat is stale, long before its 60 s lease ends', async () => {
    const timeout = { FUNDKIT_INSTANCE_TIMEOUT_MS: '1000' };
    const { second } = await killMidDelivery({ ...timeout, CRASH_LEASE_MS: '60000' }, (env) => startTestServer({ env: { ...env, ...timeout } }));
    expect(second.headers['service-webhook-attempt']).toBe('2');
  }, 60_000);
});
