/**
 * The payment's wire shape for a page of payments: their intents, refunds and conversion
 * remainders in a bounded number of queries, whatever the page size.
 */
import { refundableAmount } from '../../pipeline/refundable.js';
import type { FundingIntentRecord } from '../../records/funding-intents.js';
import type { RefundRecord } from '../../records/refunds.js';
import { presentPayment } from './present.js';
import type { PaymentRecord } from '../../records/payments.js';

export interface PaymentReadDeps {
  intents: { findByIds(ids: string[]): Promise<Map<string, FundingIntentRecord>> };
  refunds: { byPayments(paymentIds: string[]): Promise<Map<string, RefundRecord[]>> };
  /** ROUTE_REMAINDER: what a conversion left of the intent's latest confirmed payment */
  remainders: { remainders(intentIds: string[]): Promise<Map<string, { paymentId: string | null; remainder: bigint }>> };
}

export type PaymentView = ReturnType<typeof presentPayment>;

export class PaymentsReadModel {
  constructor(private readonly deps: PaymentReadDeps) {}

  /** `known`: intents the caller already holds (an intent page), so they are not read again. */
  async page(payments: PaymentRecord[], known?: Map<string, FundingIntentRecord>): Promise<PaymentView[]> {
    if (payments.length === 0) return [];
    const intentIds = [...new Set(payments.map((p) => p.funding_intent_id))];
    const missing = known ? intentIds.filter((id) => !known.has(id)) : intentIds;
    const intents = missing.length > 0 ? new Map([...(known ?? []), ...await this.deps.intents.findByIds(missing)]) : known!;
    const refunds = await this.deps.refunds.byPayments(payments.map((p) => p.id));
    // only a CONFIRMED payment can carry a remainder
    const confirmed = [...new Set(payments.filter((p) => p.status === 'CONFIRMED').map((p) => p.funding_intent_id))];
    const remainders = confirmed.length > 0 ? await this.deps.remainders.remainders(confirmed) : new Map<string, { paymentId: string | null; remainder: bigint }>();
    return payments.map((p) => {
      const intent = intents.get(p.funding_intent_id)!;
      const r = remainders.get(p.funding_intent_id);
      const remainder = r && r.paymentId === p.id ? r.remainder : 0n;
      return presentPayment(p, refundableAmount(intent, p, refunds.get(p.id) ?? [], remainder));
    });
  }

  async one(payment: PaymentRecord): Promise<PaymentView> {
    return (await this.page([payment]))[0]!;
  }
}
