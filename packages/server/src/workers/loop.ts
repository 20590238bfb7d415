/**
 * A small worker loop (after graphile-worker / pg-boss): claim a job, run it, complete it or fail
 * it with one backoff function; idle waits `intervalMs` unless `nudge()` wakes it; `stop()` lets
 * the job in hand finish. Jobs are rows in their resource's own table, claimed by state.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Logger } from 'pino';
import { FailureLog } from './failure-log.js';

export interface JobSpec<J> {
  name: string;
  /** The next job, skipping those whose key is in `inFlight` (jobs still running in this worker). */
  claim(inFlight: ReadonlySet<string>): Promise<J | undefined> | J | undefined;
  run(job: J): Promise<void>;
  /** the job threw (network down, not visible yet): retry at `retryAt` */
  fail(job: J, error: unknown, retryAt: string): Promise<void> | void;
  attempts(job: J): number;
  /**
   * Jobs run at once (default 1). Above 1, `key` names a job so a running one is not claimed
   * again: settlements and refunds wait a ledger for their transaction, and running many at once
   * lets the treasury put them in one.
   */
  concurrency?: number;
  key?(job: J): string;
}

export interface Worker {
  readonly name: string;
  nudge(): void;
  stop(): Promise<void>;
  /** resolves when nothing is claimable (tests) */
  drain(): Promise<void>;
}

/** The one backoff: 1 s, 2 s, 4 s … capped at 5 minutes (scaled down in tests). */
export function backoffMs(attempts: number, baseMs = 1000): number {
  return Math.min(baseMs * 2 ** Math.min(attempts, 16), 300_000);
}

export interface LoopOptions {
  intervalMs: number;
  backoffBaseMs?: number;
  logger: Logger;
}

export function startWorker<J>(spec: JobSpec<J>, options: LoopOptions): Worker {
  let running = true;
  let wake: (() => void) | null = null;
  let woken = false;
  const idleWaiters: (() => void)[] = [];
  const slots = spec.concurrency ?? 1;
  const inFlight = new Map<string, Promise<void>>();
  let serial = 0;
  // a summary a minute at the default backoff (1 s): the window scales with it, as tests shorten it
  const failures = new FailureLog(options.logger, spec.name, 60 * (options.backoffBaseMs ?? 1000));

  // Sleeps until the interval passes, nudge() is called, or (with jobs running) one of them ends.
  const sleep = (ms: number) => new Promise<void>((resolve) => {
    if (woken) { woken = false; return resolve(); }
    const timer = setTimeout(() => { wake = null; resolve(); }, ms);
    timer.unref();
    wake = () => { clearTimeout(timer); wake = null; resolve(); };
  });

  async function execute(job: J): Promise<void> {
    try {
      await spec.run(job);
      failures.succeeded();
    } catch (error) {
      const retryAt = new Date(Date.now() + backoffMs(spec.attempts(job), options.backoffBaseMs)).toISOString();
      failures.failed(error, 'job failed; retrying later');
      try { await spec.fail(job, error, retryAt); } catch (inner) { options.logger.error({ err: inner, worker: spec.name }, 'could not record the failure'); }
    }
  }

  /** Claims and starts jobs while slots are free; false when nothing was claimable. */
  async function fill(): Promise<boolean> {
    let started = false;
    // at most `slots` claims a turn: jobs may finish during a claim's await, and a queue of jobs
    // that settle in microtasks would otherwise be claimed and run without a turn in between
    for (let claims = 0; claims < slots && inFlight.size < slots; claims++) {
      let job: J | undefined;
      try {
        job = await spec.claim(new Set(inFlight.keys()));
      } catch (error) {
        failures.failed(error, 'claim failed', 'error');
        return started;
      }
      if (job === undefined) return started;
      const key = spec.key?.(job) ?? `job-${serial++}`;
      const done = execute(job).finally(() => {
        inFlight.delete(key);
        wake?.();
      });
      inFlight.set(key, done);
      started = true;
    }
    return started;
  }

  const done = (async () => {
    while (running) {
      // A job that settles without I/O settles in microtasks, and so does a sleep that its end
      // cuts short: without a turn of the event loop here, a long queue (or one job claimed again
      // and again) would starve timers, sockets and every request until it ended.
      await nextTurn();
      const started = await fill();
      if (slots === 1 && inFlight.size > 0) {
        await Promise.all(inFlight.values());
        continue;
      }
      if (!started && inFlight.size === 0) {
        idleWaiters.splice(0).forEach((resolve) => resolve());
        if (running) await sleep(options.intervalMs);
      } else if (inFlight.size >= slots || !started) {
        await sleep(options.intervalMs);
      }
    }
    await Promise.all(inFlight.values());
  })();

  return {
    name: spec.name,
    nudge() {
      if (wake) wake();
      else woken = true;
    },
    async stop() {
      running = false;
      wake?.();
      await done;
    },
    drain() {
      return new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        this.nudge();
      });
    },
  };
}
