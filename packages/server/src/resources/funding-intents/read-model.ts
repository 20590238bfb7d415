/**
 * The one read model of the funding intent's wire shape: a page of intents with everything the
 * shape shows (deposit account, latest applied payment, settlement, protocol record, accepted
 * quote) in a bounded number of queries whatever the page size. A retrieve is a page of one.
 */
import { intentProtocol } from '../../pipeline/protocol.js';
import type { PaymentsReadModel } from '../payments/read-model.js';
import type { PaymentRecord } from '../payments/repo.js';
import { presentQuote } from '../quotes/present.js';
import type { QuoteRecord } from '../quotes/repo.js';
import type { ExecutionRecord } from '../route-executions/repo.js';
import { presentSettlement } from '../settlements/present.js';
import type { SettlementRecord } from '../settlements/repo.js';
import { presentFundingIntent } from './present.js';
import type { FundingIntentRecord, FundingIntentsRepo } from './repo.js';

export interface IntentReadDeps {
  intents: Pick<FundingIntentsRepo, 'depositAccounts' | 'registrations'>;
  settlements: { byIntents(intentIds: string[]): Map<string, SettlementRecord> };
  payments: { latestAppliedByIntents(intentIds: string[]): Map<string, PaymentRecord> };
  paymentViews: PaymentsReadModel;
  quotes: { findByIds(ids: string[]): Map<string, QuoteRecord> };
  executions: { byQuotes(quoteIds: string[]): Map<string, ExecutionRecord> };
  publicBaseUrl: () => string;
}

export type FundingIntentView = ReturnType<typeof presentFundingIntent>;

const FAILED_STATES = ['FAILED', 'REFUND_PENDING', 'REFUNDED'];

function failureOf(intent: FundingIntentRecord, settlement: SettlementRecord | undefined) {
  if (!FAILED_STATES.includes(intent.status) || !settlement?.failure_code) return null;
  return { code: 'SETTLEMENT_FAILED', message: `${settlement.failure_message ?? ''} (${settlement.failure_code})` };
}

export class FundingIntentReadModel {
  constructor(private readonly deps: IntentReadDeps) {}

  /** At most 8 queries for the whole page (fewer when nothing is paid or quoted). */
  page(intents: FundingIntentRecord[]): FundingIntentView[] {
    if (intents.length === 0) return [];
    const { deps } = this;
    const ids = intents.map((i) => i.id);
    const accounts = deps.intents.depositAccounts(intents.map((i) => i.deposit_account_id!));
    const registrations = deps.intents.registrations([...accounts.values()].map((a) => a.address));
    const settlements = deps.settlements.byIntents(ids);
    const latest = deps.payments.latestAppliedByIntents(ids);
    const paid = [...latest.values()];
    const paymentViews = deps.paymentViews.page(paid, new Map(intents.map((i) => [i.id, i])));
    const payments = new Map(paid.map((p, n) => [p.funding_intent_id, paymentViews[n]]));
    const quoteIds = intents.map((i) => (i as { quote_id?: string | null }).quote_id).filter((q): q is string => Boolean(q));
    const quotes = quoteIds.length > 0 ? deps.quotes.findByIds(quoteIds) : new Map<string, QuoteRecord>();
    const executions = quoteIds.length > 0 ? deps.executions.byQuotes(quoteIds) : new Map<string, ExecutionRecord>();
    const baseUrl = deps.publicBaseUrl();
    return intents.map((intent) => {
      const account = accounts.get(intent.deposit_account_id!);
      if (!account) throw new Error(`deposit account of ${intent.id} missing`);
      const settlement = settlements.get(intent.id);
      const quoteId = (intent as { quote_id?: string | null }).quote_id;
      const quote = quoteId ? quotes.get(quoteId) : undefined;
      return presentFundingIntent(intent, {
        account,
        payment: payments.get(intent.id) ?? null,
        settlement: settlement ? presentSettlement(settlement) : null,
        protocol: intentProtocol(intent, registrations.get(account.address) ?? null, settlement),
        failure: failureOf(intent, settlement),
        quote: quote ? presentQuote(quote, executions.get(quote.id)) : null,
      }, baseUrl);
    });
  }

  one(intent: FundingIntentRecord): FundingIntentView {
    return this.page([intent])[0]!;
  }
}
