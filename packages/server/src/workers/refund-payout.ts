import type { RefundPayer } from '../pipeline/refund-payout.js';
import type { RefundRecord } from '../resources/refunds/repo.js';
import type { JobSpec } from './loop.js';

/** PENDING/PROCESSING refunds → paid out. */
export function refundPayoutJob(payer: RefundPayer): JobSpec<RefundRecord> {
  return {
    name: 'refund-payout',
    claim: () => payer.claim(),
    run: (refund) => payer.pay(refund),
    fail: (refund, _error, retryAt) => payer.retryLater(refund, retryAt),
    attempts: (refund) => refund.attempts,
  };
}
