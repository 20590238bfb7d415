import type { NextFunction, Request, Response } from 'express';
import type { RateLimitConfig } from '../config.js';
import { ApiError } from './api-error.js';
import { locals, type AuthContext } from './context.js';

interface Bucket {
  tokens: number;
  refilledAt: number;
}

/** Token bucket per credential, in memory (one reference-server process). */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly config: RateLimitConfig, private readonly now: () => number = Date.now) {}

  /** Takes one token; returns 0 when allowed, else the seconds to wait. */
  take(key: string): number {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.config.burst, refilledAt: now };
    const refill = ((now - bucket.refilledAt) / 1000) * this.config.ratePerSecond;
    bucket.tokens = Math.min(this.config.burst, bucket.tokens + refill);
    bucket.refilledAt = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.config.ratePerSecond));
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
  return (req: Request, res: Response, next: NextFunction): void => {
    const key = bucketKey(locals(res).auth, req);
    const wait = key ? limiter.take(key) : 0;
    if (wait > 0) throw new ApiError('RATE_LIMITED', `too many requests with this credential; retry after ${wait} s`, { retryAfterSeconds: wait });
    next();
  };
}
