/** Ledger entry rows and SQL over them (records/README.md). */
import { sql as kysql } from 'kysely';
import { bindAll, dynamic, prepared, sqlOf, type Sql, type SqlSource } from '../db/sql.js';
import type { Environment } from '../domain/environment.js';
import { applicationPage, type PageRequest } from '../domain/page.js';

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

const ENTRY_COLUMNS = [
  'id', 'application_id', 'environment', 'journal_id', 'account', 'direction', 'type', 'asset', 'amount', 'funding_intent_id',
  'settlement_id', 'refund_id', 'description', 'created_at',
] as const satisfies ReadonlyArray<keyof LedgerEntryRecord>;

const INSERT = prepared<never, LedgerEntryRecord>((k, p) => k.insertInto('ledger_entries').values(bindAll(p, ENTRY_COLUMNS)));

// In the SQL text, not bound: it is the condition of the partial index ledger_one_credit_per_intent.
// SQLite matches a bound value to it only by re-preparing the statement whenever it is bound again.
const INTENT_CREDIT = kysql.lit('INTENT_CREDIT');

const HAS_INTENT_CREDIT = prepared<{ one: number }, { intentId: string }>((k, p) => k.selectFrom('ledger_entries')
  .select((eb) => eb.lit(1).as('one')).where('funding_intent_id', '=', p('intentId')).where('type', '=', INTENT_CREDIT).limit(1));

const CREDIT_FOR = prepared<LedgerEntryRecord, { intentId: string }>((k, p) => k.selectFrom('ledger_entries').selectAll()
  .where('funding_intent_id', '=', p('intentId')).where('type', '=', INTENT_CREDIT).where('account', '=', 'APPLICATION_BALANCE'), { bigint: true });

const BALANCES = prepared<{ asset: string; total: bigint }, { applicationId: string; environment: Environment }>((k, p) => k.selectFrom('ledger_entries')
  .select((eb) => ['asset', eb.fn.sum(eb.case().when('direction', '=', 'CREDIT').then(eb.ref('amount')).else(eb.neg(eb.ref('amount'))).end()).as('total')])
  .where('application_id', '=', p('applicationId')).where('environment', '=', p('environment')).where('account', '=', 'APPLICATION_BALANCE')
  .groupBy('asset'), { bigint: true });

const PENDING = prepared<{ asset: string; total: bigint }, { applicationId: string; environment: Environment }>((k, p) => k.selectFrom('funding_intents')
  .select((eb) => ['requirement_asset as asset', eb.fn.sum('requirement_amount').as('total')])
  .where('application_id', '=', p('applicationId')).where('environment', '=', p('environment'))
  .where('status', 'in', ['PAYMENT_CONFIRMED', 'ROUTING', 'SETTLING', 'SETTLED']).groupBy('requirement_asset'), { bigint: true });

export class LedgerRepo {
  private readonly sql: Sql;

  constructor(db: SqlSource) {
    this.sql = sqlOf(db);
  }

  async insert(entry: LedgerEntryRecord): Promise<void> {
    await this.sql.run(INSERT, entry);
  }

  async hasIntentCredit(intentId: string): Promise<boolean> {
    return await this.sql.get(HAS_INTENT_CREDIT, { intentId }) !== undefined;
  }

  async creditFor(intentId: string): Promise<LedgerEntryRecord | undefined> {
    return this.sql.get(CREDIT_FOR, { intentId });
  }

  /** credits minus debits of APPLICATION_BALANCE, per asset */
  async balances(applicationId: string, environment: Environment): Promise<Map<string, bigint>> {
    return new Map((await this.sql.all(BALANCES, { applicationId, environment })).map((r) => [r.asset, r.total]));
  }

  /** confirmed but not yet credited: intents between PAYMENT_CONFIRMED and SETTLED, by requirement */
  async pending(applicationId: string, environment: Environment): Promise<Map<string, bigint>> {
    return new Map((await this.sql.all(PENDING, { applicationId, environment })).map((r) => [r.asset, r.total]));
  }

  async list(applicationId: string, environment: Environment, filters: { asset?: string; fundingIntentId?: string }, page: PageRequest): Promise<LedgerEntryRecord[]> {
    return this.sql.all(dynamic<LedgerEntryRecord>((k) => applicationPage(k, 'ledger_entries', applicationId, environment, page)
      .$if(Boolean(filters.asset), (q) => q.where('asset', '=', filters.asset!))
      .$if(Boolean(filters.fundingIntentId), (q) => q.where('funding_intent_id', '=', filters.fundingIntentId!)), { bigint: true }));
  }
}
