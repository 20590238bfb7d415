import type { RefundPayer } from '../pipeline/refund-payout.js';
import type { RefundRecord } from '../resources/refunds/repo.js';
import type { JobSpec } from './loop.js';

/** Refunds paid at once: each waits a ledger for its transaction, and the treasury batches them. */
const CONCURRENT_PAYOUTS = 200;

/** PENDING/PROCESSING refunds → paid out. */
export function refundPayoutJob(payer: RefundPayer): JobSpec<RefundRecord> {
  return {
    name: 'refund-payout',
    concurrency: CONCURRENT_PAYOUTS,
    key: (refund) => refund.id,
    claim: (busy) => payer.claim(busy),
    run: (refund) => payer.pay(refund),
    fail: (refund, _error, retryAt) => payer.retryLater(refund, retryAt),
    attempts: (refund) => refund.attempts,
  };
}
