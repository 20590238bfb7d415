import type { DepositPool } from '../pipeline/deposit-pool.js';
import type { DepositBatch } from '../pipeline/deposit-pool-repo.js';
import type { JobSpec } from './loop.js';

/** Deposit accounts of waiting intents, then pool top-ups, a batch (one transaction) at a time. */
export function depositPoolJob(pool: DepositPool): JobSpec<DepositBatch> {
  return {
    name: 'deposit-pool',
    claim: () => pool.claim(),
    run: (batch) => pool.run(batch),
    fail: (batch, _error, retryAt) => pool.retryLater(batch, retryAt),
    attempts: (batch) => pool.attempts(batch),
  };
}
