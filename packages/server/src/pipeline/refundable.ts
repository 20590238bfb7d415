/**
 * DESIGN §4 refund rules, as pure functions. Refundable = what the payment left in the deposit
 * account and was not settled to the application, minus refunds completed or in progress.
 */
import type { FundingIntentRecord } from '../records/funding-intents.js';
import type { FundingIntentStatus } from '../records/intent-transitions.js';
import type { PaymentRecord } from '../records/payments.js';
import type { RefundRecord } from '../records/refunds.js';

/** Intents whose applied money will never be settled: all of it stays in the deposit account. */
const UNSETTLED: FundingIntentStatus[] = ['EXPIRED', 'FAILED', 'REFUND_PENDING', 'REFUNDED'];
const SETTLED: FundingIntentStatus[] = ['SETTLED', 'CREDITED'];

const live = (r: RefundRecord) => r.status !== 'FAILED';
const sum = (rs: RefundRecord[]) => rs.reduce((total, r) => total + r.amount, 0n);

function base(intent: FundingIntentRecord, payment: PaymentRecord): bigint {
  if (payment.status === 'UNAPPLIED') return payment.amount;
  if (payment.status !== 'CONFIRMED') return 0n;
  // an underpayment is refundable at once: nothing of a PARTIALLY_FUNDED intent is settled yet
  if (intent.status === 'PARTIALLY_FUNDED') return payment.amount;
  return UNSETTLED.includes(intent.status) ? payment.amount : payment.amount - payment.applied_amount;
}

/**
 * What can still be paid back from the deposit account. `routeRemainder`: what a route execution
 * left of this payment's source funds after converting (ROUTE_REMAINDER), counted only once the
 * conversion really succeeded, so an unsettled intent's whole payment is never counted twice.
 */
export function refundableAmount(intent: FundingIntentRecord, payment: PaymentRecord, refunds: RefundRecord[], routeRemainder = 0n): bigint {
  const remainder = payment.status === 'CONFIRMED' && !UNSETTLED.includes(intent.status) ? routeRemainder : 0n;
  const left = base(intent, payment) + remainder - sum(refunds.filter((r) => live(r) && r.source === 'DEPOSIT'));
  return left > 0n ? left : 0n;
}

/** The settled part not yet refunded from the ledger balance (reason MANUAL only). */
export function settledRemaining(intent: FundingIntentRecord, payment: PaymentRecord, refunds: RefundRecord[]): bigint {
  if (payment.status !== 'CONFIRMED' || !SETTLED.includes(intent.status)) return 0n;
  const left = payment.applied_amount - sum(refunds.filter((r) => live(r) && r.source === 'BALANCE'));
  return left > 0n ? left : 0n;
}

export const inProgress = (refunds: RefundRecord[]) => refunds.some((r) => r.status === 'PENDING' || r.status === 'PROCESSING');

/**
 * True when the refunds (in progress or done, per `count`) return the intent's whole received value.
 * Only payments that still count toward the intent (applied) are weighed: an underpayment refunded
 * on its own was taken out of `received_amount` (see unapplyRefunded), so its refund is not counted twice.
 */
export function coversIntent(intent: FundingIntentRecord, payments: PaymentRecord[], refunds: RefundRecord[], count: (r: RefundRecord) => boolean): boolean {
  const applied = new Set(payments.filter((p) => p.status === 'CONFIRMED' && p.applied_amount > 0n).map((p) => p.id));
  const returned = sum(refunds.filter((r) => count(r) && r.source === 'DEPOSIT' && applied.has(r.payment_id)));
  return intent.received_amount > 0n && returned >= intent.received_amount;
}
