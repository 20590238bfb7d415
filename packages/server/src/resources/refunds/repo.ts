import type { Db } from '../../db/connection.js';
import type { Environment } from '../../http/context.js';
import { KEYSET_WHERE, keysetParams, type PageRequest } from '../../http/pagination.js';

export type RefundStatus = 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED';

export interface RefundRecord {
  id: string;
  funding_intent_id: string;
  payment_id: string;
  application_id: string;
  environment: Environment;
  asset_code: string;
  stellar_asset: string;
  amount: bigint;
  source: 'DEPOSIT' | 'BALANCE';
  destination_network: string;
  destination_address: string;
  memo_type: string | null;
  memo_value: string | null;
  reason: string;
  status: RefundStatus;
  envelope_xdr: string | null;
  transaction_hash: string | null;
  failure_code: string | null;
  failure_message: string | null;
  attempts: number;
  next_attempt_at: string;
  created_at: string;
  completed_at: string | null;
  updated_at: string;
}

export interface RefundFilters {
  fundingIntentId?: string;
  paymentId?: string;
  status?: RefundStatus;
}

function normalize(row: RefundRecord | undefined): RefundRecord | undefined {
  return row && { ...row, attempts: Number(row.attempts) };
}

export class RefundsRepo {
  constructor(private readonly db: Db) {}

  insert(r: RefundRecord): void {
    this.db.prepare(`INSERT INTO refunds (${Object.keys(r).join(', ')}) VALUES (${Object.keys(r).map((k) => `@${k}`).join(', ')})`).run(r);
  }

  findById(id: string): RefundRecord | undefined {
    return normalize(this.db.prepare('SELECT * FROM refunds WHERE id = ?').safeIntegers(true).get(id) as RefundRecord | undefined);
  }

  byPayment(paymentId: string): RefundRecord[] {
    return (this.db.prepare('SELECT * FROM refunds WHERE payment_id = ? ORDER BY created_at, id').safeIntegers(true).all(paymentId) as RefundRecord[]).map((r) => normalize(r)!);
  }

  /** The refunds of each payment (oldest first), in one query. */
  byPayments(paymentIds: string[]): Map<string, RefundRecord[]> {
    const rows = this.db.prepare('SELECT * FROM refunds WHERE payment_id IN (SELECT value FROM json_each(?)) ORDER BY created_at, id')
      .safeIntegers(true).all(JSON.stringify(paymentIds)) as RefundRecord[];
    const byPayment = new Map<string, RefundRecord[]>(paymentIds.map((id) => [id, []]));
    for (const row of rows) byPayment.get(row.payment_id)?.push(normalize(row)!);
    return byPayment;
  }

  byIntent(intentId: string): RefundRecord[] {
    return (this.db.prepare('SELECT * FROM refunds WHERE funding_intent_id = ? ORDER BY created_at, id').safeIntegers(true).all(intentId) as RefundRecord[]).map((r) => normalize(r)!);
  }

  list(applicationId: string, environment: Environment, filters: RefundFilters, page: PageRequest): RefundRecord[] {
    const where = ['application_id = @applicationId', 'environment = @environment'];
    if (filters.fundingIntentId) where.push('funding_intent_id = @fundingIntentId');
    if (filters.paymentId) where.push('payment_id = @paymentId');
    if (filters.status) where.push('status = @status');
    if (page.after) where.push(KEYSET_WHERE);
    return (this.db.prepare(`SELECT * FROM refunds WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT @limitPlusOne`)
      .safeIntegers(true)
      .all({ applicationId, environment, fundingIntentId: filters.fundingIntentId ?? null, paymentId: filters.paymentId ?? null, status: filters.status ?? null, ...keysetParams(page) }) as RefundRecord[])
      .map((r) => normalize(r)!);
  }

  /** The next refund to pay out, skipping those already being paid. */
  nextToRun(now: string, busy: ReadonlySet<string> = new Set()): RefundRecord | undefined {
    return normalize(this.db.prepare(`SELECT * FROM refunds WHERE status IN ('PENDING', 'PROCESSING') AND next_attempt_at <= ?
      AND id NOT IN (SELECT value FROM json_each(?)) ORDER BY next_attempt_at, id LIMIT 1`)
      .safeIntegers(true).get(now, JSON.stringify([...busy])) as RefundRecord | undefined);
  }

  update(id: string, fields: Partial<RefundRecord>): void {
    const keys = Object.keys(fields);
    this.db.prepare(`UPDATE refunds SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE id = @id`).run({ ...fields, id });
  }

  /** Deposit-account refunds still to be paid from `address` (the account cannot retire before). */
  openForIntent(intentId: string): number {
    return Number(this.db.prepare("SELECT COUNT(*) FROM refunds WHERE funding_intent_id = ? AND status IN ('PENDING', 'PROCESSING')").pluck().get(intentId));
  }
}
