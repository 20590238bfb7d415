import type { DepositRetirer } from '../pipeline/retire.js';
import type { JobSpec } from './loop.js';

/** Final intents' deposit accounts, past their watch window → merged back (RETIRED). */
export function depositRetireJob(retirer: DepositRetirer): JobSpec<string> {
  const attempts = new Map<string, number>();
  return {
    name: 'deposit-retire',
    claim: () => retirer.claim(),
    run: (intentId) => retirer.retire(intentId),
    fail: (intentId, _error, retryAt) => {
      attempts.set(intentId, (attempts.get(intentId) ?? 0) + 1);
      retirer.retryLater(intentId, retryAt);
    },
    attempts: (intentId) => attempts.get(intentId) ?? 0,
  };
}
