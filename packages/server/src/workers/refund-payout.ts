import type { RefundPayer } from '../pipeline/refund-payout.js';
import type { RefundRecord } from '../records/refunds.js';
import type { JobSpec } from './loop.js';

/**
 * PENDING/PROCESSING refunds → paid out. `concurrency`: refunds paid at once; each waits a ledger
 * for its transaction, and the treasury batches them.
 */
export function refundPayoutJob(payer: RefundPayer, concurrency = 1): JobSpec<RefundRecord> {
  return {
    name: 'refund-payout',
    concurrency,
    key: (refund) => refund.id,
    claim: (busy) => payer.claim(busy),
    run: (refund) => payer.pay(refund),
    fail: (refund, _error, retryAt) => payer.retryLater(refund, retryAt),
    attempts: (refund) => refund.attempts,
  };
}
