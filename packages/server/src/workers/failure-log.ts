import type { Logger } from 'pino';

interface Seen {
  /** failures with this cause since the last line about it */
  repeats: number;
  loggedAt: number;
  firstAt: string;
}

const MAX_CAUSES = 1000;

/**
 * A worker's failures, logged once per cause with the error (its stack), then summarised: a job
 * that keeps failing the same way (an unfunded treasury, a network down) writes one short line
 * per window with the count, not a stack at every retry.
 */
export class FailureLog {
  private readonly seen = new Map<string, Seen>();

  constructor(private readonly logger: Logger, private readonly worker: string, private readonly windowMs: number, private readonly now: () => number = Date.now) {}

  failed(error: unknown, message: string, level: 'warn' | 'error' = 'warn'): void {
    const cause = error instanceof Error ? error.message : String(error);
    const key = `${message}\u0000${cause}`;
    const seen = this.seen.get(key);
    const now = this.now();
    if (!seen) {
      if (this.seen.size >= MAX_CAUSES) this.seen.clear();
      this.seen.set(key, { repeats: 0, loggedAt: now, firstAt: new Date(now).toISOString() });
      this.logger[level]({ err: error, worker: this.worker }, `${message} (repeats of this cause are summarised)`);
      return;
    }
    seen.repeats++;
    if (now - seen.loggedAt < this.windowMs) return;
    this.logger[level]({ worker: this.worker, cause, repeats: seen.repeats, since: seen.firstAt }, `${message}: the same cause ${seen.repeats} more times (first logged with its stack at ${seen.firstAt})`);
    seen.repeats = 0;
    seen.loggedAt = now;
  }

  /** A success ends the streak: the next failure with a known cause is news again. */
  succeeded(): void {
    if (this.seen.size > 0) this.seen.clear();
  }
}
