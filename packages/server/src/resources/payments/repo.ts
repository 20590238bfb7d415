import type { Db } from '../../db/connection.js';
import type { Environment } from '../../http/context.js';
import { KEYSET_WHERE, keysetParams, type PageRequest } from '../../http/pagination.js';

export type PaymentStatus = 'DETECTED' | 'CONFIRMED' | 'UNAPPLIED' | 'FAILED';

export interface PaymentRecord {
  id: string;
  funding_intent_id: string;
  application_id: string;
  environment: Environment;
  stellar_network: string;
  asset_code: string;
  stellar_asset: string;
  amount: bigint;
  applied_amount: bigint;
  payer_address: string;
  destination_address: string;
  transaction_hash: string;
  operation_id: string;
  paging_token: string;
  operation_type: string;
  ledger: number;
  memo_type: string | null;
  memo_value: string | null;
  status: PaymentStatus;
  failure_code: string | null;
  failure_message: string | null;
  attempts: number;
  next_attempt_at: string;
  detected_at: string;
  confirmed_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface PaymentFilters {
  fundingIntentId?: string;
  status?: PaymentStatus;
}

function normalize(row: PaymentRecord | undefined): PaymentRecord | undefined {
  // amounts stay BigInt; small integer columns come back as numbers
  return row && { ...row, ledger: Number(row.ledger), attempts: Number(row.attempts) };
}

export class PaymentsRepo {
  constructor(private readonly db: Db) {}

  /** false when the operation was already recorded (a replay or a second observer). */
  insert(p: PaymentRecord): boolean {
    return this.db.prepare(`INSERT INTO payments (id, funding_intent_id, application_id, environment, stellar_network, asset_code, stellar_asset, amount,
      applied_amount, payer_address, destination_address, transaction_hash, operation_id, paging_token, operation_type, ledger, memo_type, memo_value,
      status, failure_code, failure_message, attempts, next_attempt_at, detected_at, confirmed_at, created_at, updated_at)
      VALUES (@id, @funding_intent_id, @application_id, @environment, @stellar_network, @asset_code, @stellar_asset, @amount, @applied_amount,
      @payer_address, @destination_address, @transaction_hash, @operation_id, @paging_token, @operation_type, @ledger, @memo_type, @memo_value,
      @status, @failure_code, @failure_message, @attempts, @next_attempt_at, @detected_at, @confirmed_at, @created_at, @updated_at)
      ON CONFLICT(operation_id) DO NOTHING`).run(p).changes === 1;
  }

  findById(id: string): PaymentRecord | undefined {
    return normalize(this.db.prepare('SELECT * FROM payments WHERE id = ?').safeIntegers(true).get(id) as PaymentRecord | undefined);
  }

  /** The latest payment applied to each intent (DETECTED or CONFIRMED, applied_amount > 0), in one query. */
  latestAppliedByIntents(intentIds: string[]): Map<string, PaymentRecord> {
    const rows = this.db.prepare(`SELECT * FROM payments p WHERE p.id IN (
        SELECT (SELECT id FROM payments q WHERE q.funding_intent_id = i.value AND q.status IN ('DETECTED', 'CONFIRMED') AND q.applied_amount > 0
          ORDER BY q.created_at DESC, q.id DESC LIMIT 1)
        FROM json_each(?) i)`).safeIntegers(true).all(JSON.stringify(intentIds)) as PaymentRecord[];
    return new Map(rows.map((r) => [r.funding_intent_id, normalize(r)!]));
  }

  byIntent(intentId: string): PaymentRecord[] {
    return (this.db.prepare('SELECT * FROM payments WHERE funding_intent_id = ? ORDER BY created_at, id').safeIntegers(true).all(intentId) as PaymentRecord[])
      .map((r) => normalize(r)!);
  }

  list(applicationId: string, environment: Environment, filters: PaymentFilters, page: PageRequest): PaymentRecord[] {
    const where = ['application_id = @applicationId', 'environment = @environment'];
    if (filters.fundingIntentId) where.push('funding_intent_id = @fundingIntentId');
    if (filters.status) where.push('status = @status');
    if (page.after) where.push(KEYSET_WHERE);
    const rows = this.db.prepare(`SELECT * FROM payments WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT @limitPlusOne`)
      .safeIntegers(true)
      .all({ applicationId, environment, fundingIntentId: filters.fundingIntentId ?? null, status: filters.status ?? null, ...keysetParams(page) }) as PaymentRecord[];
    return rows.map((r) => normalize(r)!);
  }

  /** The next DETECTED payment due for verification. */
  nextToConfirm(now: string): PaymentRecord | undefined {
    return normalize(this.db.prepare("SELECT * FROM payments WHERE status = 'DETECTED' AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT 1")
      .safeIntegers(true).get(now) as PaymentRecord | undefined);
  }

  markConfirmed(id: string, at: string): void {
    this.db.prepare("UPDATE payments SET status = 'CONFIRMED', confirmed_at = ?, updated_at = ? WHERE id = ? AND status = 'DETECTED'").run(at, at, id);
  }

  /** The payment stops counting toward its intent (an underpayment refunded on its own). */
  unapply(id: string, at: string): void {
    this.db.prepare('UPDATE payments SET applied_amount = 0, updated_at = ? WHERE id = ?').run(at, id);
  }

  markFailed(id: string, code: string, message: string, at: string): void {
    this.db.prepare("UPDATE payments SET status = 'FAILED', failure_code = ?, failure_message = ?, updated_at = ? WHERE id = ?").run(code, message, at, id);
  }

  retryLater(id: string, attempts: number, nextAttemptAt: string): void {
    this.db.prepare('UPDATE payments SET attempts = ?, next_attempt_at = ? WHERE id = ?').run(attempts, nextAttemptAt, id);
  }
}
