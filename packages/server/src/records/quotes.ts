/** SQL over quotes; amounts come back as BigInt (`bigint: true`). */
import { bindAll, dynamic, prepared, sqlOf, type Sql, type SqlSource } from '../db/sql.js';
import type { Environment } from '../domain/environment.js';
import { applicationPage, type PageRequest } from '../domain/page.js';

export const QUOTE_STATUSES = ['ACTIVE', 'LOCKED', 'EXECUTING', 'EXECUTED', 'EXPIRED', 'SUPERSEDED', 'FAILED'] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];

export interface QuoteRecord {
  id: string;
  application_id: string;
  environment: Environment;
  funding_intent_id: string | null;
  type: 'EXACT_INPUT' | 'EXACT_OUTPUT';
  status: QuoteStatus;
  stellar_network: string;
  source_asset: string;
  source_amount: bigint;
  source_expected_amount: bigint;
  destination_asset: string;
  destination_address: string | null;
  destination_amount: bigint;
  destination_minimum_amount: bigint;
  route_type: 'DIRECT_STELLAR' | 'STELLAR_PATH_PAYMENT';
  route_provider: string;
  route_json: string;
  fees_json: string;
  fee_total: bigint;
  exchange_rate: string;
  slippage_bps: number;
  failure_code: string | null;
  failure_message: string | null;
  expires_at: string;
  lock_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

/** What a quote's `route_json` column holds (the route executions follow its path). */
export interface RouteInfo {
  steps: { type: 'TRANSFER' | 'PATH_PAYMENT'; provider: string; source_asset: string; destination_asset: string }[];
  /** intermediate assets of the path payment, as asset keys */
  path: string[];
  estimated_duration_seconds: number;
  confidence: number;
  price_impact_bps: number;
  score: string;
}

/** One element of a quote's `fees_json` column. */
export interface FeeItem {
  type: 'NETWORK' | 'CONVERSION' | 'SERVICE';
  asset: string;
  amount: string;
}

export const routeInfo = (q: QuoteRecord) => JSON.parse(q.route_json) as RouteInfo;
export const feeItems = (q: QuoteRecord) => JSON.parse(q.fees_json) as FeeItem[];

export interface QuoteFilters {
  funding_intent_id?: string;
  status?: QuoteStatus;
}

const COLUMNS = ['id', 'application_id', 'environment', 'funding_intent_id', 'type', 'status', 'stellar_network', 'source_asset', 'source_amount',
  'source_expected_amount', 'destination_asset', 'destination_address', 'destination_amount', 'destination_minimum_amount', 'route_type',
  'route_provider', 'route_json', 'fees_json', 'fee_total', 'exchange_rate', 'slippage_bps', 'failure_code', 'failure_message', 'expires_at',
  'lock_expires_at', 'created_at', 'updated_at'] as const satisfies readonly (keyof QuoteRecord)[];

const normalize = (r: QuoteRecord): QuoteRecord => ({ ...r, slippage_bps: Number(r.slippage_bps) });

const INSERT = prepared<never, QuoteRecord>((k, p) => k.insertInto('quotes').values(bindAll(p, COLUMNS)));

const BY_ID = prepared<QuoteRecord, { id: string }>((k, p) => k.selectFrom('quotes').selectAll().where('id', '=', p('id')), { bigint: true });

const BY_IDS = prepared<QuoteRecord, { ids: string[] }>((k, p, d) => k.selectFrom('quotes').selectAll().where(d.oneOf('id', p('ids'))), { bigint: true });

type StatusArgs = { id: string; status: QuoteStatus; at: string; lock: string | null; code: string | null; message: string | null };
const SET_STATUS = prepared<never, StatusArgs>((k, p) =>
  k.updateTable('quotes').set((eb) => ({
    status: p('status'), updated_at: p('at'), lock_expires_at: eb.fn.coalesce(eb.val(p('lock')), eb.ref('lock_expires_at')),
    failure_code: p('code'), failure_message: p('message'),
  })).where('id', '=', p('id')));

const EXPIRE_STALE = prepared<never, { now: string }>((k, p) =>
  k.updateTable('quotes').set({ status: 'EXPIRED', updated_at: p('now') }).where((eb) => eb.or([
    eb.and([eb('status', '=', 'ACTIVE'), eb('expires_at', '<=', p('now'))]),
    eb.and([eb('status', '=', 'LOCKED'), eb('funding_intent_id', 'is', null), eb('lock_expires_at', '<=', p('now'))]),
  ])));

const LAPSED_LOCKS = prepared<QuoteRecord, { now: string }>((k, p) =>
  k.selectFrom('quotes as q').innerJoin('funding_intents as fi', 'fi.quote_id', 'q.id').selectAll('q')
    .where('q.status', '=', 'LOCKED').where('q.lock_expires_at', '<=', p('now'))
    .where('fi.status', '=', 'AWAITING_PAYMENT').where((eb) => eb('fi.received_amount', '=', eb.lit(0))), { bigint: true });

const SUPERSEDE_OTHERS = prepared<never, { intentId: string; keepId: string; at: string }>((k, p) =>
  k.updateTable('quotes').set({ status: 'SUPERSEDED', updated_at: p('at') })
    .where('funding_intent_id', '=', p('intentId')).where('id', '<>', p('keepId')).where('status', 'in', ['ACTIVE', 'LOCKED']));

export class QuotesRepo {
  private readonly sql: Sql;

  constructor(db: SqlSource) {
    this.sql = sqlOf(db);
  }

  async insert(q: QuoteRecord): Promise<void> {
    await this.sql.run(INSERT, q);
  }

  async findById(id: string): Promise<QuoteRecord | undefined> {
    const row = await this.sql.get(BY_ID, { id });
    return row && normalize(row);
  }

  /** Quotes by id, in one query. */
  async findByIds(ids: string[]): Promise<Map<string, QuoteRecord>> {
    return new Map((await this.sql.all(BY_IDS, { ids })).map((r) => [r.id, normalize(r)]));
  }

  async list(applicationId: string, environment: Environment, filters: QuoteFilters, page: PageRequest): Promise<QuoteRecord[]> {
    const query = dynamic<QuoteRecord>((k) => applicationPage(k, 'quotes', applicationId, environment, page)
      .$if(Boolean(filters.funding_intent_id), (q) => q.where('funding_intent_id', '=', filters.funding_intent_id!))
      .$if(Boolean(filters.status), (q) => q.where('status', '=', filters.status!)), { bigint: true });
    return (await this.sql.all(query)).map(normalize);
  }

  async setStatus(id: string, status: QuoteStatus, at: string, extra: { lock_expires_at?: string; failure_code?: string | null; failure_message?: string | null } = {}): Promise<void> {
    await this.sql.run(SET_STATUS, { id, status, at, lock: extra.lock_expires_at ?? null, code: extra.failure_code ?? null, message: extra.failure_message ?? null });
  }

  /** ACTIVE quotes past their lifetime, and simple quotes past their lock, become EXPIRED (lazily, when read). */
  async expireStale(now: string): Promise<void> {
    await this.sql.run(EXPIRE_STALE, { now });
  }

  /** Accepted quotes whose lock ran out before any money arrived. */
  async lapsedLocks(now: string): Promise<QuoteRecord[]> {
    return this.sql.all(LAPSED_LOCKS, { now });
  }

  /** Every other selectable quote of the intent once one is accepted. */
  async supersedeOthers(intentId: string, keepId: string, at: string): Promise<void> {
    await this.sql.run(SUPERSEDE_OTHERS, { intentId, keepId, at });
  }
}
