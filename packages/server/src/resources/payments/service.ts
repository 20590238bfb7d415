import { notFound } from '../../http/api-error.js';
import { toPage } from '../../http/pagination.js';
import type { PageRequest } from '../../domain/page.js';
import type { Caller } from '../../domain/caller.js';
import type { IntentOwnership } from '../../records/funding-intents.js';
import type { PaymentsReadModel } from './read-model.js';
import type { PaymentFilters, PaymentRecord, PaymentsRepo } from '../../records/payments.js';

export class PaymentsService {
  constructor(
    private readonly repo: PaymentsRepo,
    private readonly views: PaymentsReadModel,
    private readonly fundingIntents: IntentOwnership,
  ) {}

  /** Another application's payment is 404 (as its intent would be); the other environment's 403. */
  async load(caller: Caller, id: string): Promise<PaymentRecord> {
    const payment = await this.repo.findById(id);
    if (!payment || payment.application_id !== caller.applicationId) throw notFound('payment');
    await this.fundingIntents.load(caller, payment.funding_intent_id);
    return payment;
  }

  async get(caller: Caller, id: string) {
    return this.views.one(await this.load(caller, id));
  }

  async list(caller: Caller, filters: PaymentFilters, page: PageRequest) {
    return toPage(await this.repo.list(caller.applicationId, caller.environment, filters, page), page, (shown) => this.views.page(shown));
  }

  async listForIntent(caller: Caller, intentId: string, page: PageRequest) {
    await this.fundingIntents.load(caller, intentId);
    return this.list(caller, { fundingIntentId: intentId }, page);
  }
}
