import type { DepositPool } from '../pipeline/deposit-pool.js';
import type { DepositBatch } from '../pipeline/deposit-pool-repo.js';
import type { JobSpec } from './loop.js';

/**
 * Deposit accounts of waiting intents, then pool top-ups, a batch (one transaction) each;
 * `concurrency` batches at once (one per treasury channel: each lands in the next ledger).
 */
export function depositPoolJob(pool: DepositPool, concurrency = 1): JobSpec<DepositBatch> {
  return {
    name: 'deposit-pool',
    concurrency,
    key: (batch) => batch.id,
    claim: () => pool.claim(),
    run: (batch) => pool.run(batch),
    fail: (batch, _error, retryAt) => pool.retryLater(batch, retryAt),
    attempts: (batch) => pool.attempts(batch),
  };
}
