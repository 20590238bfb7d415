import type { NextFunction, Request, Response } from 'express';
import type { RateLimitConfig } from '../config.js';
import { ApiError } from './api-error.js';
import { locals, type AuthContext } from './context.js';

/** What this process holds of a credential's shared bucket. */
interface Allowance {
  /** tokens taken from the shared bucket and not spent yet */
  tokens: number;
  /** the shared bucket was empty: no need to ask again before this time (epoch ms) */
  emptyUntil: number;
}

/** The shared buckets (in the database: one limit per credential, whichever process serves it). */
export interface SharedBuckets {
  takeTokens(key: string, now: number, want: number, ratePerSecond: number, burst: number): Promise<{ granted: number; waitMs: number }>;
}

/**
 * Token bucket per credential, shared by every server process on the database. A process takes
 * tokens from the shared bucket a few at a time (a twentieth of the burst) and spends them
 * locally, so most requests cost no write; tokens a process has taken and not spent are at most
 * that share, so all processes together never exceed the limit. When the shared bucket is empty,
 * the process refuses locally until the next token is due instead of asking on every request.
 */
export class RateLimiter {
  private readonly allowances = new Map<string, Allowance>();
  private readonly refilling = new Map<string, Promise<void>>();
  private readonly share: number;

  constructor(private readonly config: RateLimitConfig, private readonly shared: SharedBuckets,
    private readonly now: () => number = Date.now) {
    this.share = Math.max(1, Math.floor(config.burst / 20));
  }

  /**
   * Takes one token; 0 when allowed, else the seconds to wait. Synchronous while this process
   * holds tokens (most requests); a promise only when it must ask the shared bucket.
   */
  take(key: string): number | Promise<number> {
    const now = this.now();
    let allowance = this.allowances.get(key);
    if (!allowance) this.allowances.set(key, allowance = { tokens: 0, emptyUntil: 0 });
    if (allowance.tokens >= 1) {
      allowance.tokens -= 1;
      return 0;
    }
    if (now < allowance.emptyUntil) return Math.max(1, Math.ceil((allowance.emptyUntil - now) / 1000));
    return this.refillThenTake(key, allowance, now);
  }

  /**
   * One refill per credential at a time: requests arriving while it is under way wait for it and
   * share what it brought, instead of each taking a share of the bucket (with 32 at once, the
   * first 20 shares emptied it and the others were refused while this process held plenty).
   */
  private async refillThenTake(key: string, allowance: Allowance, now: number): Promise<number> {
    let inFlight = this.refilling.get(key);
    if (!inFlight) {
      inFlight = this.refill(key, allowance, now).finally(() => this.refilling.delete(key));
      this.refilling.set(key, inFlight);
    }
    await inFlight;
    return this.take(key);
  }

  private async refill(key: string, allowance: Allowance, now: number): Promise<void> {
    const { granted, waitMs } = await this.shared.takeTokens(key, now, this.share, this.config.ratePerSecond, this.config.burst);
    if (granted === 0) allowance.emptyUntil = now + waitMs;
    else allowance.tokens += granted;
  }
}

/** One bucket per credential; public operations (sign-in, sign-up) per client address, against guessing. */
function bucketKey(context: AuthContext | undefined, req: Request): string | null {
  if (!context) return null;
  if ('keyId' in context) return `key:${context.keyId}`;
  if (context.kind === 'account') return `session:${context.sessionId}`;
  if (context.kind === 'operator') return 'operator';
  return `ip:${req.ip ?? 'unknown'}`;
}

export function rateLimit(limiter: RateLimiter) {
  const decide = (wait: number, next: NextFunction): void => {
    if (wait > 0) throw new ApiError('RATE_LIMITED', `too many requests with this credential; retry after ${wait} s`, { retryAfterSeconds: wait });
    next();
  };
  return (req: Request, res: Response, next: NextFunction): void | Promise<void> => {
    const key = bucketKey(locals(res).auth, req);
    if (!key) return next();
    const wait = limiter.take(key);
    return typeof wait === 'number' ? decide(wait, next) : wait.then((seconds) => decide(seconds, next));
  };
}
