/**
 * Waits, bounded, for an intent whose deposit account is still being created on the network.
 *
 * Creates never wait for the chain: with the warm pool empty an intent answers `CREATED` and its
 * account is created a ledger or two later. An operation that needs the account on chain (a test
 * payment, expiring, a quote whose trustline must be added) waits for that here instead of
 * answering "not yet": a client that creates an intent and pays it at once simply gets its payment.
 * Past the bound it answers a retryable 409 with Retry-After, which is never stored under the
 * request's Idempotency-Key (http/idempotency.ts), so the same request retried later runs again.
 *
 * The wait follows the intent on the process's StatusFeed: one query a tick for every waiter and
 * every open checkout together, whichever server's pipeline creates the account.
 */
import { ApiError } from '../../http/api-error.js';
import type { StatusFeed } from './status-feed.js';

export interface PayableWaitDeps {
  feed: StatusFeed;
  /** the intent's status now (undefined once it is gone) */
  status(intentId: string): Promise<string | undefined>;
  /** seconds between ledgers of the network served (0: the sandbox's instant ledger) */
  ledgerSeconds: number;
  /** overrides the bound (tests) */
  boundMs?: number;
}

/** A few ledgers of the configured clock, and never less than this on an instant ledger. */
const LEDGERS = 5;
const MIN_BOUND_MS = 10_000;

export function payableBoundMs(ledgerSeconds: number): number {
  return Math.max(MIN_BOUND_MS, LEDGERS * ledgerSeconds * 1000);
}

export class PayableWait {
  readonly boundMs: number;

  constructor(private readonly deps: PayableWaitDeps) {
    this.boundMs = deps.boundMs ?? payableBoundMs(deps.ledgerSeconds);
  }

  /**
   * Resolves once the intent has left `CREATED` (its account is on chain, or it was cancelled: the
   * caller's own rules decide then); throws a retryable 409 when the bound passes first.
   */
  async until(intentId: string): Promise<void> {
    if (!await this.provisioning(intentId)) return;
    const started = Date.now();
    await new Promise<void>((resolve, reject) => {
      let stop: (() => void) | null = null;
      let done = false;
      const finish = (error?: unknown) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        stop?.();
        if (error) reject(error);
        else resolve();
      };
      const check = () => void this.provisioning(intentId).then((waiting) => waiting || finish(), finish);
      const timer = setTimeout(() => finish(this.notYet(intentId, Date.now() - started)), this.boundMs);
      // the account may have been created between the first read and following: read once more after
      this.deps.feed.follow(intentId, (change) => (change === 'closing' ? finish(this.notYet(intentId, Date.now() - started)) : check())).then((unfollow) => {
        if (done) return unfollow?.();
        if (!unfollow) return finish();
        stop = unfollow;
        check();
      }, finish);
    });
  }

  private async provisioning(intentId: string): Promise<boolean> {
    return (await this.deps.status(intentId)) === 'CREATED';
  }

  /** a ledger of the clock (the account is created at a close), within 1 s to a minute */
  private retryAfterSeconds(): number {
    return Math.min(60, Math.max(1, Math.ceil(this.deps.ledgerSeconds)));
  }

  private notYet(intentId: string, waitedMs: number): ApiError {
    const clock = this.deps.ledgerSeconds > 0 ? `${this.deps.ledgerSeconds} s ledgers` : 'an instant ledger';
    return new ApiError('CONFLICT',
      `the deposit account of ${intentId} is still being created on the network (PROVISIONING): waited ${(waitedMs / 1000).toFixed(1)} s ` +
      `(${clock}) and it is not active yet; retry after ${this.retryAfterSeconds()} s`,
      { retryable: true, retryAfterSeconds: this.retryAfterSeconds() });
  }
}
