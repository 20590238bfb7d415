/** SQL over quotes; amounts come back as BigInt (safeIntegers). */
import type { Db } from '../../db/connection.js';
import type { Environment } from '../../http/context.js';
import { KEYSET_WHERE, keysetParams, type PageRequest } from '../../http/pagination.js';

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

export interface QuoteFilters {
  funding_intent_id?: string;
  status?: QuoteStatus;
}

const COLUMNS = `id, application_id, environment, funding_intent_id, type, status, stellar_network, source_asset, source_amount, source_expected_amount,
  destination_asset, destination_address, destination_amount, destination_minimum_amount, route_type, route_provider, route_json, fees_json, fee_total,
  exchange_rate, slippage_bps, failure_code, failure_message, expires_at, lock_expires_at, created_at, updated_at`;

export class QuotesRepo {
  constructor(private readonly db: Db) {}

  insert(q: QuoteRecord): void {
    const names = COLUMNS.split(',').map((c) => c.trim());
    this.db.prepare(`INSERT INTO quotes (${names.join(', ')}) VALUES (${names.map((n) => `@${n}`).join(', ')})`).run(q);
  }

  findById(id: string): QuoteRecord | undefined {
    const row = this.db.prepare('SELECT * FROM quotes WHERE id = ?').safeIntegers(true).get(id) as QuoteRecord | undefined;
    return row && { ...row, slippage_bps: Number(row.slippage_bps) };
  }

  /** Quotes by id, in one query. */
  findByIds(ids: string[]): Map<string, QuoteRecord> {
    const rows = this.db.prepare('SELECT * FROM quotes WHERE id IN (SELECT value FROM json_each(?))').safeIntegers(true).all(JSON.stringify(ids)) as QuoteRecord[];
    return new Map(rows.map((r) => [r.id, { ...r, slippage_bps: Number(r.slippage_bps) }]));
  }

  list(applicationId: string, environment: Environment, filters: QuoteFilters, page: PageRequest): QuoteRecord[] {
    const where = ['application_id = @applicationId', 'environment = @environment'];
    if (filters.funding_intent_id) where.push('funding_intent_id = @intentId');
    if (filters.status) where.push('status = @status');
    if (page.after) where.push(KEYSET_WHERE);
    const rows = this.db.prepare(`SELECT * FROM quotes WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT @limitPlusOne`)
      .safeIntegers(true)
      .all({ applicationId, environment, intentId: filters.funding_intent_id ?? null, status: filters.status ?? null, ...keysetParams(page) }) as QuoteRecord[];
    return rows.map((r) => ({ ...r, slippage_bps: Number(r.slippage_bps) }));
  }

  setStatus(id: string, status: QuoteStatus, at: string, extra: { lock_expires_at?: string; failure_code?: string | null; failure_message?: string | null } = {}): void {
    this.db.prepare(`UPDATE quotes SET status = @status, updated_at = @at, lock_expires_at = COALESCE(@lock, lock_expires_at),
      failure_code = @code, failure_message = @message WHERE id = @id`)
      .run({ id, status, at, lock: extra.lock_expires_at ?? null, code: extra.failure_code ?? null, message: extra.failure_message ?? null });
  }

  /** ACTIVE quotes past their lifetime, and simple quotes past their lock, become EXPIRED (lazily, when read). */
  expireStale(now: string): void {
    this.db.prepare(`UPDATE quotes SET status = 'EXPIRED', updated_at = @now WHERE (status = 'ACTIVE' AND expires_at <= @now)
      OR (status = 'LOCKED' AND funding_intent_id IS NULL AND lock_expires_at <= @now)`).run({ now });
  }

  /** Accepted quotes whose lock ran out before any money arrived. */
  lapsedLocks(now: string): QuoteRecord[] {
    return this.db.prepare(`SELECT q.* FROM quotes q JOIN funding_intents fi ON fi.quote_id = q.id WHERE q.status = 'LOCKED' AND q.lock_expires_at <= ?
      AND fi.status = 'AWAITING_PAYMENT' AND fi.received_amount = 0`).safeIntegers(true).all(now) as QuoteRecord[];
  }

  /** Every other selectable quote of the intent once one is accepted. */
  supersedeOthers(intentId: string, keepId: string, at: string): void {
    this.db.prepare("UPDATE quotes SET status = 'SUPERSEDED', updated_at = ? WHERE funding_intent_id = ? AND id <> ? AND status IN ('ACTIVE', 'LOCKED')")
      .run(at, intentId, keepId);
  }
}
