/**
 * The deposit-key thread through a server: FUNDKIT_KEY_THREAD_AFTER sets when a server starts
 * making keys on a thread of their own (256 keys handed out by default; 0 here: from the first),
 * every create gets an address of its own, and once the thread is killed the keys are made on the
 * API's thread again. Then the package as published: a server of the built dist/ starts its sandbox
 * thread and its key thread from their built entries (a missing entry fails here, not in a user's
 * first run).
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { KeyReserve } from '../../src/stellar/key-reserve.js';
import { DEFAULT_BOOTSTRAP, KEYS, startTestServer, type TestServer } from '../helpers/server.js';
import { createIntent, FAST_ENV, waitForIntent } from './helpers.js';

/** The server's key reserve, and the thread it runs (null when none). */
const reserveOf = (server: { services: { pipeline: { pipeline: { deposits: unknown } } } }) => {
  const keys = (server.services.pipeline.pipeline.deposits as { keys: KeyReserve }).keys;
  return { keys, thread: () => (keys as unknown as { thread: import('node:worker_threads').Worker | null }).thread };
};

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

describe('the key thread through a server (FUNDKIT_KEY_THREAD_AFTER=0)', () => {
  it('makes the keys of creates on its thread, each address distinct; killed, the keys are made on the API\'s thread', async () => {
    const t: TestServer = await startTestServer({ env: { ...FAST_ENV, FUNDKIT_DEPOSIT_POOL_SIZE: '0', FUNDKIT_KEY_THREAD_AFTER: '0' } });
    open.push(t);
    const { keys, thread } = reserveOf(t.server);
    const first = [];
    for (let wave = 0; wave < 3; wave++) first.push(...await Promise.all(Array.from({ length: 5 }, () => createIntent(t, { amount: '2.00' }))));
    // the first create's refill asked the thread: the keys after it are the thread's (from the
    // sources, the thread compiles them first: seconds on loaded cores)
    await expect.poll(() => keys.threaded, { timeout: 30_000 }).toBe(true);
    expect(thread()).not.toBeNull();
    const done = await Promise.all(first.map((i) => waitForIntent(t, i.id, (x) => x.status === 'AWAITING_PAYMENT', 20_000)));
    const addresses = done.map((i) => i.deposit_account.address as string);
    expect(new Set(addresses).size).toBe(first.length);

    // the thread dies; the reserve is used up: keys are made here again, and creates go on
    await thread()!.terminate();
    await expect.poll(() => thread()).toBeNull();
    (keys as unknown as { keys: unknown[] }).keys.length = 0;
    const after = await Promise.all(Array.from({ length: 5 }, () => createIntent(t, { amount: '2.00' })));
    await expect.poll(() => keys.ready).toBeGreaterThan(0);
    expect(thread()).toBeNull();
    const later = await Promise.all(after.map((i) => waitForIntent(t, i.id, (x) => x.status === 'AWAITING_PAYMENT', 20_000)));
    const all = [...addresses, ...later.map((i) => i.deposit_account.address as string)];
    expect(new Set(all).size).toBe(all.length);
  }, 90_000);
});

describe('the built package (dist/)', () => {
  const dist = new URL('../../dist/index.js', import.meta.url);

  it('starts its sandbox thread and its key thread from their built entries', async () => {
    // pnpm test builds first; a run of this file alone needs `pnpm build`
    expect(existsSync(dist), 'packages/server/dist/index.js: run pnpm build').toBe(true);
    const { createServer } = await import(dist.href) as typeof import('../../src/index.js');
    const engine = process.env.FUNDKIT_TEST_ENGINE === 'postgres'
      ? { FUNDKIT_DATABASE_URL: await (await import('../helpers/postgres.js')).freshPostgresDatabase('dist') } : {};
    const dir = mkdtempSync(join(tmpdir(), 'fundkit-dist-'));
    // no sandbox given: the server starts its own thread, from @fundkit/sandbox's dist/thread.js
    const server = await createServer({
      env: { ...FAST_ENV, ...engine, FUNDKIT_DB: join(dir, 'fundkit.db'), FUNDKIT_DATA_DIR: dir, FUNDKIT_MASTER_KEY: 'ef'.repeat(32),
        FUNDKIT_DEPOSIT_POOL_SIZE: '0', FUNDKIT_KEY_THREAD_AFTER: '0', LOG_LEVEL: 'silent' },
      bootstrap: DEFAULT_BOOTSTRAP, logger: pino({ level: 'silent' }),
    });
    open.push(server);
    const { url } = await server.listen(0, '127.0.0.1');
    const create = async () => {
      const res = await fetch(`${url}/v1/funding-intents`, {
        method: 'POST', headers: { authorization: `Bearer ${KEYS.alphaSecretTest}`, 'content-type': 'application/json' }, body: JSON.stringify({ amount: '2.00', asset: 'USDC' }),
      });
      expect(res.status).toBe(201);
      return await res.json() as { id: string };
    };
    const intents = [await create(), await create(), await create()];
    const { keys } = reserveOf(server);
    // dist/key-thread.js answered (its first answer, 256 keys, can take seconds on loaded cores)
    await expect.poll(() => ({ threaded: keys.threaded, failed: (keys as unknown as { threadFailed: boolean }).threadFailed }), { timeout: 30_000 })
      .toEqual({ threaded: true, failed: false });
    // and the accounts were created on the sandbox of @fundkit/sandbox's dist/thread.js
    for (const intent of intents) {
      await expect.poll(async () => (await (await fetch(`${url}/v1/funding-intents/${intent.id}`, { headers: { authorization: `Bearer ${KEYS.alphaSecretTest}` } })).json() as { status: string }).status,
        { timeout: 20_000 }).toBe('AWAITING_PAYMENT');
    }
  }, 60_000);
});
