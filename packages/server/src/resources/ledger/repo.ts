import type { Db } from '../../db/connection.js';
import type { Environment } from '../../http/context.js';
import { KEYSET_WHERE, keysetParams, type PageRequest } from '../../http/pagination.js';

export type LedgerAccount = 'APPLICATION_BALANCE' | 'SETTLEMENT_CLEARING' | 'REFUND_CLEARING' | 'FEES';
export type EntryType = 'INTENT_CREDIT' | 'REFUND' | 'FEE' | 'ADJUSTMENT';

export interface LedgerEntryRecord {
  id: string;
  application_id: string;
  environment: Environment;
  journal_id: string;
  account: LedgerAccount;
  direction: 'CREDIT' | 'DEBIT';
  type: EntryType;
  asset: string;
  amount: bigint;
  funding_intent_id: string | null;
  settlement_id: string | null;
  refund_id: string | null;
  description: string;
  created_at: string;
}

export class LedgerRepo {
  constructor(private readonly db: Db) {}

  insert(entry: LedgerEntryRecord): void {
    this.db.prepare(`INSERT INTO ledger_entries (${Object.keys(entry).join(', ')}) VALUES (${Object.keys(entry).map((k) => `@${k}`).join(', ')})`).run(entry);
  }

  hasIntentCredit(intentId: string): boolean {
    return this.db.prepare("SELECT 1 FROM ledger_entries WHERE funding_intent_id = ? AND type = 'INTENT_CREDIT' LIMIT 1").get(intentId) !== undefined;
  }

  creditFor(intentId: string): LedgerEntryRecord | undefined {
    return this.db.prepare("SELECT * FROM ledger_entries WHERE funding_intent_id = ? AND type = 'INTENT_CREDIT' AND account = 'APPLICATION_BALANCE'")
      .safeIntegers(true).get(intentId) as LedgerEntryRecord | undefined;
  }

  /** credits minus debits of APPLICATION_BALANCE, per asset */
  balances(applicationId: string, environment: Environment): Map<string, bigint> {
    const rows = this.db.prepare(`SELECT asset, SUM(CASE direction WHEN 'CREDIT' THEN amount ELSE -amount END) AS total FROM ledger_entries
      WHERE application_id = ? AND environment = ? AND account = 'APPLICATION_BALANCE' GROUP BY asset`).safeIntegers(true)
      .all(applicationId, environment) as { asset: string; total: bigint }[];
    return new Map(rows.map((r) => [r.asset, r.total]));
  }

  /** confirmed but not yet credited: intents between PAYMENT_CONFIRMED and SETTLED, by requirement */
  pending(applicationId: string, environment: Environment): Map<string, bigint> {
    const rows = this.db.prepare(`SELECT requirement_asset AS asset, SUM(requirement_amount) AS total FROM funding_intents
      WHERE application_id = ? AND environment = ? AND status IN ('PAYMENT_CONFIRMED', 'ROUTING', 'SETTLING', 'SETTLED') GROUP BY requirement_asset`)
      .safeIntegers(true).all(applicationId, environment) as { asset: string; total: bigint }[];
    return new Map(rows.map((r) => [r.asset, r.total]));
  }

  list(applicationId: string, environment: Environment, filters: { asset?: string; fundingIntentId?: string }, page: PageRequest): LedgerEntryRecord[] {
    const where = ['application_id = @applicationId', 'environment = @environment'];
    if (filters.asset) where.push('asset = @asset');
    if (filters.fundingIntentId) where.push('funding_intent_id = @fundingIntentId');
    if (page.after) where.push(KEYSET_WHERE);
    return this.db.prepare(`SELECT * FROM ledger_entries WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT @limitPlusOne`)
      .safeIntegers(true)
      .all({ applicationId, environment, asset: filters.asset ?? null, fundingIntentId: filters.fundingIntentId ?? null, ...keysetParams(page) }) as LedgerEntryRecord[];
  }
}
