import type { Db } from '../../db/connection.js';
import type { Environment } from '../../http/context.js';
import { KEYSET_WHERE, keysetParams, type PageRequest } from '../../http/pagination.js';

export type SettlementStatus = 'PENDING' | 'SUBMITTED' | 'CONFIRMED' | 'FAILED';
export type ReconciliationStatus = 'UNRECONCILED' | 'RECONCILED' | 'MISMATCHED';

export interface SettlementRecord {
  id: string;
  funding_intent_id: string;
  application_id: string;
  environment: Environment;
  payment_id: string;
  stellar_network: string;
  route: 'direct' | 'path_payment';
  source_asset: string;
  source_amount: bigint;
  destination_asset: string;
  destination_address: string;
  destination_amount: bigint;
  transaction_hash: string | null;
  envelope_xdr: string | null;
  transfer_transaction_hash: string | null;
  protocol_settlement_id: string | null;
  protocol_contract_id: string | null;
  protocol_create_transaction_hash: string | null;
  protocol_confirm_transaction_hash: string | null;
  status: SettlementStatus;
  reconciliation_status: ReconciliationStatus;
  fail_on_submit: number;
  failure_code: string | null;
  failure_message: string | null;
  attempts: number;
  next_attempt_at: string;
  submitted_at: string | null;
  confirmed_at: string | null;
  created_at: string;
  updated_at: string;
}

function normalize(row: SettlementRecord | undefined): SettlementRecord | undefined {
  return row && { ...row, attempts: Number(row.attempts), fail_on_submit: Number(row.fail_on_submit) };
}

export class SettlementsRepo {
  constructor(private readonly db: Db) {}

  insert(s: SettlementRecord): void {
    this.db.prepare(`INSERT INTO settlements (${Object.keys(s).join(', ')}) VALUES (${Object.keys(s).map((k) => `@${k}`).join(', ')})`).run(s);
  }

  findById(id: string): SettlementRecord | undefined {
    return normalize(this.db.prepare('SELECT * FROM settlements WHERE id = ?').safeIntegers(true).get(id) as SettlementRecord | undefined);
  }

  byIntent(intentId: string): SettlementRecord | undefined {
    return normalize(this.db.prepare('SELECT * FROM settlements WHERE funding_intent_id = ?').safeIntegers(true).get(intentId) as SettlementRecord | undefined);
  }

  /** The settlement of each intent, in one query. */
  byIntents(intentIds: string[]): Map<string, SettlementRecord> {
    const rows = this.db.prepare('SELECT * FROM settlements WHERE funding_intent_id IN (SELECT value FROM json_each(?))')
      .safeIntegers(true).all(JSON.stringify(intentIds)) as SettlementRecord[];
    return new Map(rows.map((r) => [r.funding_intent_id, normalize(r)!]));
  }

  list(applicationId: string, environment: Environment, filters: { fundingIntentId?: string; status?: string }, page: PageRequest): SettlementRecord[] {
    const where = ['application_id = @applicationId', 'environment = @environment'];
    if (filters.fundingIntentId) where.push('funding_intent_id = @fundingIntentId');
    if (filters.status) where.push('status = @status');
    if (page.after) where.push(KEYSET_WHERE);
    return (this.db.prepare(`SELECT * FROM settlements WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT @limitPlusOne`)
      .safeIntegers(true)
      .all({ applicationId, environment, fundingIntentId: filters.fundingIntentId ?? null, status: filters.status ?? null, ...keysetParams(page) }) as SettlementRecord[])
      .map((r) => normalize(r)!);
  }

  /** The next settlement to submit or confirm, skipping those of intents already being worked on. */
  nextToRun(now: string, busyIntents: ReadonlySet<string> = new Set()): SettlementRecord | undefined {
    return normalize(this.db.prepare(`SELECT * FROM settlements WHERE status IN ('PENDING', 'SUBMITTED') AND next_attempt_at <= ?
      AND funding_intent_id NOT IN (SELECT value FROM json_each(?)) ORDER BY next_attempt_at, id LIMIT 1`)
      .safeIntegers(true).get(now, JSON.stringify([...busyIntents])) as SettlementRecord | undefined);
  }

  update(id: string, fields: Partial<SettlementRecord>): void {
    const keys = Object.keys(fields);
    this.db.prepare(`UPDATE settlements SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE id = @id`).run({ ...fields, id });
  }

  /** Test helper flag: consumed by the intent's next settlement. */
  flagFailure(intentId: string, at: string): void {
    this.db.prepare('INSERT INTO settlement_failure_flags (funding_intent_id, created_at) VALUES (?, ?) ON CONFLICT DO NOTHING').run(intentId, at);
  }

  takeFailureFlag(intentId: string): boolean {
    return this.db.prepare('DELETE FROM settlement_failure_flags WHERE funding_intent_id = ?').run(intentId).changes === 1;
  }
}
