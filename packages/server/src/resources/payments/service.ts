import { notFound } from '../../http/api-error.js';
import { toPage, type PageRequest } from '../../http/pagination.js';
import type { Caller, IntentAccess } from '../funding-intents/service.js';
import type { PaymentsReadModel } from './read-model.js';
import type { PaymentFilters, PaymentRecord, PaymentsRepo } from './repo.js';

export class PaymentsService {
  constructor(
    private readonly repo: PaymentsRepo,
    private readonly views: PaymentsReadModel,
    private readonly fundingIntents: IntentAccess,
  ) {}

  /** Another application's payment is 404 (as its intent would be); the other environment's 403. */
  load(caller: Caller, id: string): PaymentRecord {
    const payment = this.repo.findById(id);
    if (!payment || payment.application_id !== caller.applicationId) throw notFound('payment');
    this.fundingIntents.load(caller, payment.funding_intent_id);
    return payment;
  }

  get(caller: Caller, id: string) {
    return this.views.one(this.load(caller, id));
  }

  list(caller: Caller, filters: PaymentFilters, page: PageRequest) {
    return toPage(this.repo.list(caller.applicationId, caller.environment, filters, page), page, (shown) => this.views.page(shown));
  }

  listForIntent(caller: Caller, intentId: string, page: PageRequest) {
    this.fundingIntents.load(caller, intentId);
    return this.list(caller, { fundingIntentId: intentId }, page);
  }
}
