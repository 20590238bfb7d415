/**
 * Limits on the public auth operations, counted in the database (db/limit-store.ts) so they hold
 * whichever server a client reaches:
 * - sign-in failures per account (any client) and per client (any account): a few are free in a
 *   window of an hour; past them each failure blocks that account or client for a backoff that
 *   doubles, 30 s up to 15 min. A blocked sign-in is refused before any password is hashed.
 *   A correct password clears the account's failures (not the client's: one valid account must
 *   not reset a client's count against others).
 * - sign-ups and email verifications per client, per hour.
 * The account is keyed by a digest of the normalised email, known or not, so the answers do not
 * tell registered emails apart and the table holds no email.
 */
import type { RateLimiterStoreAbstract } from 'rate-limiter-flexible';
import { ApiError } from '../../http/api-error.js';
import { sha256Hex } from '../../lib/crypto.js';
import type { AuthLimitSettings } from '../../config.js';
import { isRefusal, type LimitStore } from '../../db/limit-store.js';

const WINDOW_SECONDS = 3_600;
const FIRST_BACKOFF_SECONDS = 30;
const MAX_BACKOFF_SECONDS = 900;

/** The block after the n-th failure past the free ones (n ≥ 1): 30 s, 60 s, 120 s … 15 min. */
export function backoffSeconds(over: number): number {
  return Math.min(MAX_BACKOFF_SECONDS, FIRST_BACKOFF_SECONDS * 2 ** Math.min(over - 1, 20));
}

function limited(msBeforeNext: number, why: string): ApiError {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new ApiError('RATE_LIMITED', `${why}; retry after ${seconds} s`, { retryAfterSeconds: seconds });
}

export class AuthLimits {
  private readonly failures: RateLimiterStoreAbstract;
  private readonly blocks: RateLimiterStoreAbstract;
  private readonly signUps: RateLimiterStoreAbstract;
  private readonly verifications: RateLimiterStoreAbstract;

  constructor(private readonly store: LimitStore, private readonly settings: AuthLimitSettings) {
    // failures are counted (penalty), never refused by the counter itself: the blocks refuse
    this.failures = store.limiter({ keyPrefix: 'signin_failures', points: Number.MAX_SAFE_INTEGER, duration: WINDOW_SECONDS });
    this.blocks = store.limiter({ keyPrefix: 'signin_blocked', points: 1, duration: MAX_BACKOFF_SECONDS });
    // a refused client is refused in this process until its window ends: a flood writes nothing
    this.signUps = store.limiter({ keyPrefix: 'signup', points: settings.signUpsPerClient, duration: WINDOW_SECONDS, inMemoryBlockOnConsumed: settings.signUpsPerClient + 1 });
    this.verifications = store.limiter({ keyPrefix: 'verify_email', points: settings.verificationsPerClient, duration: WINDOW_SECONDS, inMemoryBlockOnConsumed: settings.verificationsPerClient + 1 });
  }

  private keys(email: string, client: string | null): Array<{ key: string; free: number; who: string }> {
    const keys = [{ key: `account:${sha256Hex(email)}`, free: this.settings.signInAccountFailures, who: 'this account' }];
    if (client !== null) keys.push({ key: `client:${client}`, free: this.settings.signInClientFailures, who: 'this client' });
    return keys;
  }

  /** 429 while the account or the client is in backoff. */
  async beforeSignIn(email: string, client: string | null): Promise<void> {
    for (const { key, who } of this.keys(email, client)) {
      const blocked = await this.blocks.get(key);
      if (blocked && blocked.msBeforeNext > 0) throw limited(blocked.msBeforeNext, `too many failed sign-ins from ${who}`);
    }
  }

  /** Counts a wrong email or password; past the free failures, blocks for the next backoff. */
  async signInFailed(email: string, client: string | null): Promise<void> {
    for (const { key, free } of this.keys(email, client)) {
      // a number on SQLite, a string on PostgreSQL (a BIGINT column through node-postgres)
      const failures = Number((await this.failures.penalty(key, 1)).consumedPoints);
      if (failures > free) await this.blocks.block(key, backoffSeconds(failures - free));
    }
  }

  async signInSucceeded(email: string): Promise<void> {
    await this.failures.delete(`account:${sha256Hex(email)}`);
  }

  async beforeSignUp(client: string | null): Promise<void> {
    await this.take(this.signUps, client, 'too many sign-ups from this client');
  }

  async beforeVerifyEmail(client: string | null): Promise<void> {
    await this.take(this.verifications, client, 'too many email verifications from this client');
  }

  private async take(limiter: RateLimiterStoreAbstract, client: string | null, why: string): Promise<void> {
    if (client === null) return;
    try {
      await limiter.consume(`client:${client}`);
    } catch (error) {
      if (isRefusal(error)) throw limited(error.msBeforeNext, why);
      throw error;
    }
  }

  purgeExpired(): Promise<number> {
    return this.store.purgeExpired();
  }
}
