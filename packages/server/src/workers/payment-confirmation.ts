import type { PaymentConfirmer } from '../pipeline/confirm.js';
import type { PaymentRecord } from '../records/payments.js';
import type { JobSpec } from './loop.js';

/**
 * DETECTED payments → re-read and confirmed (or failed). `concurrency`: payments confirmed at
 * once. Each first reads its transaction back from the network (a Horizon round trip on testnet),
 * so one at a time confirms a burst paid in one ledger over many ledgers.
 */
export function paymentConfirmationJob(confirmer: PaymentConfirmer, concurrency = 1): JobSpec<PaymentRecord> {
  return {
    name: 'payment-confirmation',
    concurrency,
    key: (payment) => payment.id,
    claim: (busy) => confirmer.claim(busy),
    run: (payment) => confirmer.confirm(payment),
    fail: (payment, _error, retryAt) => confirmer.retryLater(payment, retryAt),
    attempts: (payment) => payment.attempts,
  };
}
