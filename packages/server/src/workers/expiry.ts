import type { Expirer } from '../pipeline/expiry.js';
import type { FundingIntentRecord } from '../resources/funding-intents/repo.js';
import type { JobSpec } from './loop.js';

/** Open intents past expires_at → EXPIRED. */
export function expiryJob(expirer: Expirer): JobSpec<FundingIntentRecord> {
  return {
    name: 'expiry',
    claim: () => expirer.claim(),
    run: async (intent) => {
      expirer.expire(intent.id);
    },
    fail: () => undefined,
    attempts: () => 0,
  };
}
