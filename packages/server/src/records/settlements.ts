/** Settlement rows and SQL over them (records/README.md). */
import { dynamic, prepared, sqlOf, type Sql, type SqlSource } from '../db/sql.js';
import type { Environment } from '../domain/environment.js';
import { applicationPage, type PageRequest } from '../domain/page.js';

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

const BY_ID = prepared<SettlementRecord, { id: string }>((k, p) =>
  k.selectFrom('settlements').selectAll().where('id', '=', p('id')), { bigint: true });

const BY_INTENT = prepared<SettlementRecord, { intentId: string }>((k, p) =>
  k.selectFrom('settlements').selectAll().where('funding_intent_id', '=', p('intentId')), { bigint: true });

const BY_INTENTS = prepared<SettlementRecord, { intentIds: string[] }>((k, p, d) =>
  k.selectFrom('settlements').selectAll().where(d.oneOf('funding_intent_id', p('intentIds'))), { bigint: true });

const NEXT_TO_RUN = prepared<SettlementRecord, { now: string; busyIntents: string[] }>((k, p, d) =>
  k.selectFrom('settlements').selectAll().where('status', 'in', ['PENDING', 'SUBMITTED']).where('next_attempt_at', '<=', p('now'))
    .where((eb) => eb.not(d.oneOf('funding_intent_id', p('busyIntents')))).orderBy('next_attempt_at').orderBy('id').limit(1), { bigint: true });

const FLAG_FAILURE = prepared<never, { intentId: string; at: string }>((k, p) =>
  k.insertInto('settlement_failure_flags').values({ funding_intent_id: p('intentId'), created_at: p('at') }).onConflict((oc) => oc.doNothing()));

const TAKE_FAILURE_FLAG = prepared<never, { intentId: string }>((k, p) =>
  k.deleteFrom('settlement_failure_flags').where('funding_intent_id', '=', p('intentId')));

export class SettlementsRepo {
  private readonly sql: Sql;

  constructor(db: SqlSource) {
    this.sql = sqlOf(db);
  }

  async insert(s: SettlementRecord): Promise<void> {
    await this.sql.run(dynamic((k) => k.insertInto('settlements').values(s)));
  }

  async findById(id: string): Promise<SettlementRecord | undefined> {
    return normalize(await this.sql.get(BY_ID, { id }));
  }

  async byIntent(intentId: string): Promise<SettlementRecord | undefined> {
    return normalize(await this.sql.get(BY_INTENT, { intentId }));
  }

  /** The settlement of each intent, in one query. */
  async byIntents(intentIds: string[]): Promise<Map<string, SettlementRecord>> {
    return new Map((await this.sql.all(BY_INTENTS, { intentIds })).map((r) => [r.funding_intent_id, normalize(r)!]));
  }

  async list(applicationId: string, environment: Environment, filters: { fundingIntentId?: string; status?: string }, page: PageRequest): Promise<SettlementRecord[]> {
    const query = dynamic<SettlementRecord>((k) => applicationPage(k, 'settlements', applicationId, environment, page)
      .$if(!!filters.fundingIntentId, (q) => q.where('funding_intent_id', '=', filters.fundingIntentId!))
      .$if(!!filters.status, (q) => q.where('status', '=', filters.status!)), { bigint: true });
    return (await this.sql.all(query)).map((r) => normalize(r)!);
  }

  /** The next settlement to submit or confirm, skipping those of intents already being worked on. */
  async nextToRun(now: string, busyIntents: ReadonlySet<string> = new Set()): Promise<SettlementRecord | undefined> {
    return normalize(await this.sql.get(NEXT_TO_RUN, { now, busyIntents: [...busyIntents] }));
  }

  async update(id: string, fields: Partial<SettlementRecord>): Promise<void> {
    await this.sql.run(dynamic((k) => k.updateTable('settlements').set(fields).where('id', '=', id)));
  }

  /**
   * Moves the row on only while its status is one of `from`; false when another worker (a process
   * that took the pipeline over) moved it first, so the caller must not act on it again.
   */
  async updateFrom(id: string, from: Array<SettlementRecord['status']>, fields: Partial<SettlementRecord>): Promise<boolean> {
    return await this.sql.run(dynamic((k) => k.updateTable('settlements').set(fields).where('id', '=', id).where('status', 'in', from))) === 1;
  }

  /** Test helper flag: consumed by the intent's next settlement. */
  async flagFailure(intentId: string, at: string): Promise<void> {
    await this.sql.run(FLAG_FAILURE, { intentId, at });
  }

  async takeFailureFlag(intentId: string): Promise<boolean> {
    return await this.sql.run(TAKE_FAILURE_FLAG, { intentId }) === 1;
  }
}
