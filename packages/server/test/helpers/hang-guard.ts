/**
 * A test file whose thread stops turning its event loop (a loop of microtasks that never yields, a
 * synchronous wait) cannot time out: vitest's timeouts are timers on that thread. Without this
 * guard such a file hangs the whole run until CI's limit, with no word of where. With it, the file
 * fails after HANG_LIMIT_S with the stuck stack printed, and the run goes on.
 *
 * A freeze after every test of the file has run is told apart: it is not the tests' (seen in CI
 * twice, blocked in native code on a lock once the tests had passed, as in Node's own shutdown
 * deadlock, nodejs/node#54918). The guard then names the file in FUNDKIT_HANG_REPORT, and
 * scripts/vitest-run.mjs runs that file once more.
 */
import { Worker } from 'node:worker_threads';
import { afterAll, expect } from 'vitest';

const HANG_LIMIT_S = Number(process.env.FUNDKIT_TEST_HANG_LIMIT_S ?? 120);

const base = Math.floor(Date.now() / 1000);
// [0]: seconds since base at the last turn of the event loop; [1]: 1 once the file's tests have all run
const beat = new Int32Array(new SharedArrayBuffer(8));
// The real setInterval, taken before any test can install fake timers.
const heartbeat = setInterval(() => Atomics.store(beat, 0, Math.floor(Date.now() / 1000) - base), 1_000);
heartbeat.unref();

const guard = new Worker(new URL('./hang-guard-worker.cjs', import.meta.url), {
  workerData: { buffer: beat.buffer, base, limitS: HANG_LIMIT_S, file: expect.getState().testPath ?? 'a test file' },
});
guard.unref();

// a setup file's afterAll runs after the test file's own (hooks run as a stack)
afterAll(() => { Atomics.store(beat, 1, 1); });
