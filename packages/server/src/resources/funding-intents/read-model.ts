/**
 * The one read model of the funding intent's wire shape: a page of intents with everything the
 * shape shows (deposit account, latest applied payment, settlement, protocol record, accepted
 * quote) in a bounded number of queries whatever the page size. A retrieve is a page of one.
 */
import { intentProtocol } from '../../pipeline/protocol.js';
import type { PaymentsReadModel } from '../payments/read-model.js';
import type { PaymentRecord } from '../../records/payments.js';
import { presentQuote } from '../quotes/present.js';
import type { QuoteRecord } from '../../records/quotes.js';
import type { ExecutionRecord } from '../../records/route-executions.js';
import { presentSettlement } from '../settlements/present.js';
import type { SettlementRecord } from '../../records/settlements.js';
import type { CheckoutLinks } from './checkout-link.js';
import { presentFundingIntent } from './present.js';
import type { DepositAccountRecord, FundingIntentRecord, FundingIntentsRepo } from '../../records/funding-intents.js';

export interface IntentReadDeps {
  intents: Pick<FundingIntentsRepo, 'pageRelations'>;
  settlements: { byIntents(intentIds: string[]): Promise<Map<string, SettlementRecord>> };
  payments: { latestAppliedByIntents(intentIds: string[]): Promise<Map<string, PaymentRecord>> };
  paymentViews: PaymentsReadModel;
  quotes: { findByIds(ids: string[]): Promise<Map<string, QuoteRecord>> };
  executions: { byQuotes(quoteIds: string[]): Promise<Map<string, ExecutionRecord>> };
  publicBaseUrl: () => string;
  /** the hosted checkout link of an intent (its secret is sealed in the row) */
  checkoutLinks: Pick<CheckoutLinks, 'url'>;
}

export type FundingIntentView = ReturnType<typeof presentFundingIntent>;

const FAILED_STATES = ['FAILED', 'REFUND_PENDING', 'REFUNDED'];

/** Read only (never handed out): a page with no settlement or payment to read. */
const NO_SETTLEMENTS: ReadonlyMap<string, SettlementRecord> = new Map();
const NO_PAYMENTS: ReadonlyMap<string, PaymentRecord> = new Map();

function failureOf(intent: FundingIntentRecord, settlement: SettlementRecord | undefined) {
  if (!FAILED_STATES.includes(intent.status) || !settlement?.failure_code) return null;
  return { code: 'SETTLEMENT_FAILED', message: `${settlement.failure_message ?? ''} (${settlement.failure_code})` };
}

/** Same columns, same values (rows are flat: strings, numbers, BigInts, nulls). */
function sameRow(a: object, b: object): boolean {
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let n = 0;
  for (const key in x) {
    if (x[key] !== y[key]) return false;
    n++;
  }
  for (const _key in y) n--;
  return n === 0;
}

/**
 * The same intent row: its version changes with every write to it (migration 019's trigger), so
 * equal versions are the same row; a record made in memory (no version yet) is compared in full.
 */
function sameIntent(kept: FundingIntentRecord, read: FundingIntentRecord): boolean {
  const [a, b] = [kept.row_version, read.row_version];
  if (a === undefined || a === null || b === undefined || b === null) return sameRow(kept, read);
  return a === b && kept.id === read.id;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/**
 * Freezes what a view's copies share (every nested value), not the view itself: it is never handed
 * out, only copied, and V8 copies a frozen object through its slow path (~1 µs a view, 6% of a list of 50).
 */
function freezeParts<T extends object>(view: T): T {
  for (const key of Object.keys(view)) deepFreeze((view as Record<string, unknown>)[key]);
  return view;
}

/** A presented intent kept with every input it was built from, and its JSON as UTF-8. */
interface PresentedEntry {
  intent: FundingIntentRecord;
  account: DepositAccountRecord;
  registration: string | null;
  baseUrl: string;
  view: FundingIntentView;
  json: Buffer;
}

/** Presented intents kept (least recently used dropped first): ~2.5 KB of JSON each. */
const PRESENTED_CACHE_SIZE = 4_000;

/** The JSON of views the read model handed out (for routes that send them as they are). */
const jsonOfView = new WeakMap<object, Buffer>();

/** The UTF-8 JSON of a view from `page`/`one`, byte for byte JSON.stringify's; undefined if it was not cached. */
export function presentedJson(view: object): Buffer | undefined {
  return jsonOfView.get(view);
}

export class FundingIntentReadModel {
  /**
   * Intents nothing has been paid to, settled or quoted for (the ones waiting for payment, which
   * lists and status polls show most), presented once while their inputs stay the same: the
   * intent row, its deposit account row, the registration hash and the public base URL are
   * compared on every read, so any change presents the intent again. Paid, settled and quoted
   * intents show more relations and are presented on each read.
   */
  private readonly presented = new Map<string, PresentedEntry>();

  constructor(private readonly deps: IntentReadDeps) {}

  /**
   * The cached entry when every input is unchanged. It is not moved to the back: the oldest kept is
   * dropped first, so an intent read all the time is presented again once every 4,000 new ones
   * (a Map delete and set per intent per read cost more, 2 % of a list of 100).
   */
  private hit(intent: FundingIntentRecord, account: DepositAccountRecord, registration: string | null, baseUrl: string): PresentedEntry | undefined {
    const entry = this.presented.get(intent.id);
    if (!entry) return undefined;
    if (entry.registration !== registration || entry.baseUrl !== baseUrl || !sameIntent(entry.intent, intent) || !sameRow(entry.account, account)) return undefined;
    return entry;
  }

  private remember(entry: PresentedEntry): void {
    // the kept view is handed out as it is to read-only callers (a list), its JSON known
    jsonOfView.set(entry.view, entry.json);
    this.presented.delete(entry.intent.id);
    if (this.presented.size >= PRESENTED_CACHE_SIZE) this.presented.delete(this.presented.keys().next().value!);
    this.presented.set(entry.intent.id, entry);
  }

  /** A view of a cached entry: a fresh top-level object (callers may add to it) over frozen shared parts (the cached top level is never handed out). */
  private share(entry: PresentedEntry): FundingIntentView {
    const view = { ...entry.view };
    jsonOfView.set(view, entry.json);
    return view;
  }

  /**
   * At most 9 queries for the whole page (2 or 3 when nothing is paid, settled or quoted).
   * `readOnly`: the caller only sends the views (a list), so a kept view is handed out as it is,
   * not copied: ~0.6 µs and a WeakMap entry less per intent, 8 % of a list of 100.
   */
  async page(intents: FundingIntentRecord[], { readOnly = false } = {}): Promise<FundingIntentView[]> {
    if (intents.length === 0) return [];
    const { deps } = this;
    const ids = intents.map((i) => i.id);
    const { accounts, registrations, related } = await deps.intents.pageRelations(intents);
    // settlements and payments are read only for intents that have any (most have neither)
    const relatedIds = related.size > 0 ? ids.filter((id) => related.has(id)) : [];
    const settlements = relatedIds.length > 0 ? await deps.settlements.byIntents(relatedIds) : NO_SETTLEMENTS;
    const latest = relatedIds.length > 0 ? await deps.payments.latestAppliedByIntents(relatedIds) : NO_PAYMENTS;
    const paid = [...latest.values()];
    const paymentViews = paid.length > 0 ? await deps.paymentViews.page(paid, new Map(intents.map((i) => [i.id, i]))) : [];
    const payments = new Map(paid.map((p, n) => [p.funding_intent_id, paymentViews[n]]));
    const quoteIds = intents.map((i) => (i as { quote_id?: string | null }).quote_id).filter((q): q is string => Boolean(q));
    const quotes = quoteIds.length > 0 ? await deps.quotes.findByIds(quoteIds) : new Map<string, QuoteRecord>();
    const executions = quoteIds.length > 0 ? await deps.executions.byQuotes(quoteIds) : new Map<string, ExecutionRecord>();
    const baseUrl = deps.publicBaseUrl();
    return intents.map((intent) => {
      const account = accounts.get(intent.deposit_account_id!);
      if (!account) throw new Error(`deposit account of ${intent.id} missing`);
      const settlement = settlements.get(intent.id);
      const quoteId = (intent as { quote_id?: string | null }).quote_id;
      const quote = quoteId ? quotes.get(quoteId) : undefined;
      const payment = payments.get(intent.id) ?? null;
      const registration = registrations.get(account.address) ?? null;
      const cacheable = !payment && !settlement && !quoteId;
      if (cacheable) {
        const entry = this.hit(intent, account, registration, baseUrl);
        if (entry) return readOnly ? entry.view : this.share(entry);
      }
      const view = presentFundingIntent(intent, {
        account,
        payment,
        settlement: settlement ? presentSettlement(settlement) : null,
        protocol: intentProtocol(intent, registration, settlement),
        failure: failureOf(intent, settlement),
        quote: quote ? presentQuote(quote, executions.get(quote.id)) : null,
      }, deps.checkoutLinks.url(baseUrl, intent));
      if (!cacheable) return view;
      // copies of the rows: a caller may change its own objects after this read
      const entry: PresentedEntry = { intent: { ...intent }, account: { ...account }, registration, baseUrl, view: freezeParts(view), json: Buffer.from(JSON.stringify(view)) };
      this.remember(entry);
      return readOnly ? entry.view : this.share(entry);
    });
  }

  async one(intent: FundingIntentRecord): Promise<FundingIntentView> {
    return (await this.page([intent]))[0]!;
  }
}
