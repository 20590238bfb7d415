import type { NextFunction, Request, Response } from 'express';
import type { RateLimitConfig } from '../config.js';
import { ApiError } from './api-error.js';
import { clientKey } from './client-key.js';
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
   * holds tokens (most requests); a promise only when it must ask the shared bucket. `scale`
   * multiplies the rate and burst of this bucket (an application's bucket is larger than a key's).
   */
  take(key: string, scale = 1): number | Promise<number> {
    const now = this.now();
    let allowance = this.allowances.get(key);
    if (!allowance) this.allowances.set(key, allowance = { tokens: 0, emptyUntil: 0 });
    if (allowance.tokens >= 1) {
      allowance.tokens -= 1;
      return 0;
    }
    if (now < allowance.emptyUntil) return Math.max(1, Math.ceil((allowance.emptyUntil - now) / 1000));
    return this.refillThenTake(key, allowance, now, scale);
  }

  /**
   * One refill per credential at a time: requests arriving while it is under way wait for it and
   * share what it brought, instead of each taking a share of the bucket (with 32 at once, the
   * first 20 shares emptied it and the others were refused while this process held plenty).
   */
  private async refillThenTake(key: string, allowance: Allowance, now: number, scale: number): Promise<number> {
    let inFlight = this.refilling.get(key);
    if (!inFlight) {
      inFlight = this.refill(key, allowance, now, scale).finally(() => this.refilling.delete(key));
      this.refilling.set(key, inFlight);
    }
    await inFlight;
    return this.take(key, scale);
  }

  private async refill(key: string, allowance: Allowance, now: number, scale: number): Promise<void> {
    const { granted, waitMs } = await this.shared.takeTokens(key, now, this.share * scale, this.config.ratePerSecond * scale, this.config.burst * scale);
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
  return `ip:${clientKey(req)}`;
}

/** An application's bucket holds this many times a credential's rate and burst. */
export const APPLICATION_RATE_FACTOR = 4;

/**
 * One bucket per application and environment besides the credential's: an account minting many
 * keys (or signing in many sessions) still shares its application's limit. Not checkout sessions:
 * payers' browsers must not use up the merchant's own limit.
 */
function applicationBucketKey(context: AuthContext | undefined): string | null {
  if (!context || !('application' in context) || context.kind === 'checkout') return null;
  return `app:${context.application.id}:${context.environment}`;
}

export function rateLimit(limiter: RateLimiter) {
  const decide = (wait: number, next: NextFunction, what: string): void => {
    if (wait > 0) throw new ApiError('RATE_LIMITED', `too many requests ${what}; retry after ${wait} s`, { retryAfterSeconds: wait });
    next();
  };
  const then = (wait: number | Promise<number>, on: (seconds: number) => void | Promise<void>) => (typeof wait === 'number' ? on(wait) : wait.then(on));
  return (req: Request, res: Response, next: NextFunction): void | Promise<void> => {
    const context = locals(res).auth;
    const key = bucketKey(context, req);
    if (!key) return next();
    const appKey = applicationBucketKey(context);
    return then(limiter.take(key), (wait) => {
      if (wait > 0 || !appKey) return decide(wait, next, 'with this credential');
      return then(limiter.take(appKey, APPLICATION_RATE_FACTOR), (appWait) => decide(appWait, next, 'for this application'));
    });
  };
}
