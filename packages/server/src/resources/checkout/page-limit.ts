/**
 * Hosted checkout page loads per client, counted in the database (db/limit-store.ts), so the
 * limit holds whichever server a client reaches: each load verifies a link secret and may touch
 * the database, and behind a load balancer a per-process count would let one client probe links
 * or load pages as many times over as there are servers. The widget's script is not counted.
 */
import type { RateLimiterStoreAbstract } from 'rate-limiter-flexible';
import { isRefusal, type LimitStore } from '../../db/limit-store.js';

const WINDOW_SECONDS = 60;

export interface PageLimits {
  /** Counts one page load: 0 when allowed, else the whole seconds until the client may load again. */
  take(client: string): Promise<number>;
}

/** `perMinute` page loads per client (FUNDKIT_CHECKOUT_PAGE_LIMIT). */
export function checkoutPageLimits(store: LimitStore, perMinute: number): PageLimits {
  const limiter: RateLimiterStoreAbstract = store.limiter({
    keyPrefix: 'checkout_page', points: perMinute, duration: WINDOW_SECONDS,
    // a refused client is refused here until its minute ends: a flood of page loads writes nothing
    inMemoryBlockOnConsumed: perMinute + 1,
  });
  return {
    async take(client) {
      try {
        await limiter.consume(`client:${client}`);
        return 0;
      } catch (error) {
        if (isRefusal(error)) return Math.max(1, Math.ceil(error.msBeforeNext / 1000));
        throw error;
      }
    },
  };
}
