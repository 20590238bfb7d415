/**
 * A sandbox thread that dies after its start (an uncaught error in it, an exit) takes the sandbox
 * network with it: /readyz turns 503 and its network check says why, not only "fetch failed".
 * The thread here is @fundkit/sandbox's dist/thread.js behind a small wrapper that ends
 * the thread (exit code 7) once the test asks, the way a crash in it would.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { startSandboxThread, type SandboxThread } from '../../src/stellar/sandbox/thread.js';
import { OPERATOR_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { FAST_ENV } from './helpers.js';

let t: TestServer | null = null;
let link: SandboxThread | null = null;
afterEach(async () => {
  await t?.close();
  await link?.close();
  t = link = null;
});

/** /readyz with the metrics token (the operator key here): its detail may be kept for operators. */
async function readyz(server: TestServer) {
  const res = await fetch(`${server.url}/readyz`, { headers: { authorization: `Bearer ${OPERATOR_KEY}` } });
  return { status: res.status, checks: ((await res.json()) as { checks: Record<string, { status: string; error?: string }> }).checks };
}

describe('a sandbox thread that dies', () => {
  it('turns /readyz to 503, its network check naming the stopped thread', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fundkit-thread-death-'));
    const dieWhen = join(dir, 'die');
    const wrapper = join(dir, 'dying-sandbox-thread.mjs');
    writeFileSync(wrapper, [
      "import { existsSync } from 'node:fs';",
      "import { workerData } from 'node:worker_threads';",
      'setInterval(() => { if (existsSync(workerData.dieWhen)) process.exit(7); }, 50);',
      'await import(workerData.realEntry);',
    ].join('\n'));
    const realEntry = pathToFileURL(inject('sandboxThreadEntry')).href;
    expect(existsSync(inject('sandboxThreadEntry'))).toBe(true);
    link = await startSandboxThread({ dbPath: ':memory:', ledgerSeconds: 0, rates: null, ...{ dieWhen, realEntry } } as Parameters<typeof startSandboxThread>[0],
      (error) => console.error('[test] the dying sandbox thread failed', error), { unref: true, entry: wrapper });
    t = await startTestServer({ sandbox: link, env: FAST_ENV });
    await expect.poll(async () => (await readyz(t!)).status).toBe(200);

    writeFileSync(dieWhen, '');
    await expect.poll(async () => (await readyz(t!)).status, { timeout: 15_000 }).toBe(503);
    const down = await readyz(t);
    expect(down.checks.network).toMatchObject({ status: 'fail' });
    expect(down.checks.network!.error).toMatch(/^the sandbox thread stopped \(exit code 7\): the sandbox network is gone; restart the server/);
    expect(down.checks.database).toMatchObject({ status: 'ok' });
  }, 60_000);
});
