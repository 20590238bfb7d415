import type { Logger } from 'pino';

export interface LoopOptions {
  name: string;
  logger: Logger;
  /** Longest sleep between passes; new work normally arrives through nudge(). */
  pollIntervalMs: number;
  /** One pass. Returns the milliseconds until it next has work, or null/undefined for "poll". */
  tick: () => Promise<number | null | undefined> | number | null | undefined;
}

export interface Loop {
  /** Runs the next pass now (or right after the current one). */
  nudge(): void;
  /** Ends the loop after the current pass. */
  stop(): Promise<void>;
}

/**
 * The worker loop (after graphile-worker's doNext): pass, then sleep until the pass's next due
 * time or the poll interval, whichever is sooner; nudge() cuts the sleep short. A failing pass
 * is logged and retried after the poll interval, so a locked or broken database cannot spin it.
 */
export function startLoop(options: LoopOptions): Loop {
  let stopped = false;
  let nudged = false;
  let wake: (() => void) | null = null;

  const sleep = (ms: number) => new Promise<void>((resolve) => {
    if (nudged || stopped) return resolve();
    const timer = setTimeout(done, ms);
    timer.unref();
    function done() {
      clearTimeout(timer);
      wake = null;
      resolve();
    }
    wake = done;
  });

  async function pass(): Promise<number> {
    try {
      const next = await options.tick();
      return typeof next === 'number' ? Math.min(next, options.pollIntervalMs) : options.pollIntervalMs;
    } catch (error) {
      options.logger.error({ err: error, loop: options.name }, 'worker pass failed');
      return options.pollIntervalMs;
    }
  }

  async function run(): Promise<void> {
    while (!stopped) {
      nudged = false;
      const wait = await pass();
      if (!stopped) await sleep(wait);
    }
  }

  const running = run();
  return {
    nudge() {
      nudged = true;
      wake?.();
    },
    async stop() {
      stopped = true;
      wake?.();
      await running;
    },
  };
}
