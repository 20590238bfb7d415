import type { Expirer } from '../pipeline/expiry.js';
import type { FundingIntentRecord } from '../records/funding-intents.js';
import type { JobSpec } from './loop.js';

/**
 * Open intents past expires_at → EXPIRED. An intent whose expiry fails waits out the backoff
 * (kept here: expiry has no job row) while the intents behind it expire on time.
 */
export function expiryJob(expirer: Expirer): JobSpec<FundingIntentRecord> {
  const failed = new Map<string, { attempts: number; retryAt: number }>();
  return {
    name: 'expiry',
    claim: async () => {
      const now = Date.now();
      return expirer.claim([...failed].filter(([, f]) => f.retryAt > now).map(([id]) => id));
    },
    run: async (intent) => {
      await expirer.expire(intent.id);
      failed.delete(intent.id);
    },
    fail: (intent, _error, retryAt) => {
      failed.set(intent.id, { attempts: (failed.get(intent.id)?.attempts ?? 0) + 1, retryAt: Date.parse(retryAt) });
    },
    attempts: (intent) => failed.get(intent.id)?.attempts ?? 0,
  };
}
