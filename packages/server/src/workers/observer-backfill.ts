import type { Observer } from '../pipeline/observer.js';
import type { JobSpec } from './loop.js';

/**
 * Pages every watched deposit account from its persisted cursor, once per `everyMs`: catches up
 * after a restart and covers anything a push watcher missed.
 */
export function observerBackfillJob(observer: Observer, everyMs: number): JobSpec<number> {
  let next = 0;
  return {
    name: 'observer-backfill',
    claim: () => (Date.now() >= next ? Date.now() : undefined),
    run: async () => {
      next = Date.now() + everyMs;
      await observer.backfill();
    },
    fail: () => undefined,
    attempts: () => 0,
  };
}
