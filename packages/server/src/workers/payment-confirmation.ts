import type { PaymentConfirmer } from '../pipeline/confirm.js';
import type { PaymentRecord } from '../resources/payments/repo.js';
import type { JobSpec } from './loop.js';

/** DETECTED payments → re-read and confirmed (or failed). */
export function paymentConfirmationJob(confirmer: PaymentConfirmer): JobSpec<PaymentRecord> {
  return {
    name: 'payment-confirmation',
    claim: () => confirmer.claim(),
    run: (payment) => confirmer.confirm(payment),
    fail: (payment, _error, retryAt) => confirmer.retryLater(payment, retryAt),
    attempts: (payment) => payment.attempts,
  };
}
