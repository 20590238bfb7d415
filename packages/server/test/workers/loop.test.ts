import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { expiryJob } from '../../src/workers/expiry.js';
import { startWorker, type JobSpec } from '../../src/workers/loop.js';
import type { Expirer } from '../../src/pipeline/expiry.js';
import type { FundingIntentRecord } from '../../src/records/funding-intents.js';

const logger = pino({ level: 'silent' });

describe('the worker loop', () => {
  it.each([1, 4])('gives timers and sockets a turn between jobs that finish without I/O (%i at once)', async (concurrency) => {
    // Jobs that settle in microtasks only: a loop that never yields would run all of them before
    // the timer below, holding up every request of the server for as long.
    let ran = 0;
    let claimed = 0;
    const spec: JobSpec<number> = {
      name: 'busy', concurrency, key: (n) => String(n),
      claim: () => (claimed < 100_000 ? claimed++ : undefined), run: async () => { ran++; }, fail: () => {}, attempts: () => 0,
    };
    const worker = startWorker(spec, { intervalMs: 10, logger });
    const ranBeforeTimer = await new Promise<number>((resolve) => setTimeout(() => resolve(ran), 0));
    // and the queue still moves between the turns
    await expect.poll(() => ran, { interval: 1 }).toBeGreaterThan(ranBeforeTimer + 10);
    await worker.stop();
    // a timer is due after 1 ms: a few loop turns' worth of jobs, not the whole queue
    expect(ranBeforeTimer).toBeLessThan(1_000);
  });

  it('expiry: an intent whose expiry fails backs off, and the intents behind it still expire', async () => {
    const open = new Set(['fi_broken', 'fi_a', 'fi_b']);
    const attempts: string[] = [];
    const expirer = {
      claim: (waiting: string[] = []) => {
        const id = [...open].sort().find((i) => !waiting.includes(i));
        return id ? ({ id } as FundingIntentRecord) : undefined;
      },
      expire: (id: string) => {
        attempts.push(id);
        if (id === 'fi_broken') throw new Error('database is locked');
        open.delete(id);
        return true;
      },
    } as unknown as Expirer;
    const worker = startWorker(expiryJob(expirer), { intervalMs: 5, backoffBaseMs: 10_000, logger });
    await expect.poll(() => [...open]).toEqual(['fi_broken']);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await worker.stop();
    // tried once, then left alone for its backoff (10 s): not retried in a hot loop
    expect(attempts.filter((id) => id === 'fi_broken')).toHaveLength(1);
    expect(attempts).toEqual(expect.arrayContaining(['fi_a', 'fi_b']));
  });
});
