import { notFound } from '../../http/api-error.js';
import { toList, type PageRequest } from '../../http/pagination.js';
import { refundableAmount } from '../../pipeline/refundable.js';
import type { Caller } from '../funding-intents/service.js';
import type { IntentAccess } from '../../pipeline/services.js';
import type { FundingIntentRecord, FundingIntentsRepo } from '../funding-intents/repo.js';
import type { RefundsRepo } from '../refunds/repo.js';
import { presentPayment } from './present.js';
import type { PaymentFilters, PaymentRecord, PaymentsRepo } from './repo.js';

export class PaymentsService {
  /** Route executions fill this: the source funds a conversion left of a payment (set by createServices). */
  routeRemainder: ((intent: FundingIntentRecord, payment: PaymentRecord) => bigint) | null = null;

  constructor(
    private readonly repo: PaymentsRepo,
    private readonly intents: FundingIntentsRepo,
    private readonly refunds: RefundsRepo,
    private readonly fundingIntents: IntentAccess,
  ) {}

  present(p: PaymentRecord) {
    const intent = this.intents.findById(p.funding_intent_id)!;
    return presentPayment(p, refundableAmount(intent, p, this.refunds.byPayment(p.id), this.routeRemainder?.(intent, p) ?? 0n));
  }

  /** Another application's payment is 404 (as its intent would be); the other environment's 403. */
  load(caller: Caller, id: string): PaymentRecord {
    const payment = this.repo.findById(id);
    if (!payment || payment.application_id !== caller.applicationId) throw notFound('payment');
    this.fundingIntents.load(caller, payment.funding_intent_id);
    return payment;
  }

  get(caller: Caller, id: string) {
    return this.present(this.load(caller, id));
  }

  list(caller: Caller, filters: PaymentFilters, page: PageRequest) {
    return toList(this.repo.list(caller.applicationId, caller.environment, filters, page), page, (p) => this.present(p));
  }

  listForIntent(caller: Caller, intentId: string, page: PageRequest) {
    this.fundingIntents.load(caller, intentId);
    return this.list(caller, { fundingIntentId: intentId }, page);
  }

  /** The latest payment applied to an intent (the intent's `payment` field). */
  latestApplied(intentId: string) {
    // an underpayment refunded on its own (applied_amount 0) no longer counts toward the intent
    const applied = this.repo.byIntent(intentId).filter((p) => (p.status === 'DETECTED' || p.status === 'CONFIRMED') && p.applied_amount > 0n);
    const last = applied.at(-1);
    return last ? this.present(last) : null;
  }
}
