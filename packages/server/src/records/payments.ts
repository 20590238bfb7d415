/** Payment rows and SQL over them (records/README.md). */
import { bindAll, dynamic, prepared, sqlOf, type Sql, type SqlSource } from '../db/sql.js';
import type { Environment } from '../domain/environment.js';
import { applicationPage, type PageRequest } from '../domain/page.js';

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

const COLUMNS = ['id', 'funding_intent_id', 'application_id', 'environment', 'stellar_network', 'asset_code', 'stellar_asset', 'amount',
  'applied_amount', 'payer_address', 'destination_address', 'transaction_hash', 'operation_id', 'paging_token', 'operation_type', 'ledger',
  'memo_type', 'memo_value', 'status', 'failure_code', 'failure_message', 'attempts', 'next_attempt_at', 'detected_at', 'confirmed_at',
  'created_at', 'updated_at'] as const;

const INSERT = prepared<never, PaymentRecord>((k, p) =>
  k.insertInto('payments').values(bindAll(p, COLUMNS)).onConflict((oc) => oc.column('operation_id').doNothing()));

const BY_ID = prepared<PaymentRecord, { id: string }>((k, p) => k.selectFrom('payments').selectAll().where('id', '=', p('id')), { bigint: true });

// For each intent (its id from funding_intents, which every payment references), the id of its
// latest applied payment; intents without one give NULL, which matches no payment.
const LATEST_APPLIED = prepared<PaymentRecord, { intentIds: string[] }>((k, p, d) =>
  k.selectFrom('payments as p').selectAll('p').where('p.id', 'in', k.selectFrom(d.values(p('intentIds'), 'i'))
    .select((eb) => eb.selectFrom('payments as q').select('q.id').whereRef('q.funding_intent_id', '=', 'i.value')
      .where('q.status', 'in', ['DETECTED', 'CONFIRMED']).where('q.applied_amount', '>', 0)
      .orderBy('q.created_at', 'desc').orderBy('q.id', 'desc').limit(1).as('id'))), { bigint: true });

const BY_INTENT = prepared<PaymentRecord, { intentId: string }>((k, p) =>
  k.selectFrom('payments').selectAll().where('funding_intent_id', '=', p('intentId')).orderBy('created_at').orderBy('id'), { bigint: true });

const NEXT_TO_CONFIRM = prepared<PaymentRecord, { now: string; busy: string[] }>((k, p, d) =>
  k.selectFrom('payments').selectAll().where('status', '=', 'DETECTED').where('next_attempt_at', '<=', p('now'))
    .where((eb) => eb.not(d.oneOf('id', p('busy')))).orderBy('next_attempt_at').orderBy('id').limit(1), { bigint: true });

const MARK_CONFIRMED = prepared<never, { id: string; at: string }>((k, p) =>
  k.updateTable('payments').set({ status: 'CONFIRMED', confirmed_at: p('at'), updated_at: p('at') })
    .where('id', '=', p('id')).where('status', '=', 'DETECTED'));

const UNAPPLY = prepared<never, { id: string; at: string }>((k, p) =>
  k.updateTable('payments').set({ applied_amount: 0, updated_at: p('at') }).where('id', '=', p('id')));

const MARK_FAILED = prepared<never, { id: string; code: string; message: string; at: string }>((k, p) =>
  k.updateTable('payments').set({ status: 'FAILED', failure_code: p('code'), failure_message: p('message'), updated_at: p('at') })
    .where('id', '=', p('id')));

const RETRY_LATER = prepared<never, { id: string; attempts: number; nextAttemptAt: string }>((k, p) =>
  k.updateTable('payments').set({ attempts: p('attempts'), next_attempt_at: p('nextAttemptAt') }).where('id', '=', p('id')));

export class PaymentsRepo {
  private readonly sql: Sql;

  constructor(db: SqlSource) {
    this.sql = sqlOf(db);
  }

  /** false when the operation was already recorded (a replay or a second observer). */
  async insert(p: PaymentRecord): Promise<boolean> {
    return await this.sql.run(INSERT, p) === 1;
  }

  async findById(id: string): Promise<PaymentRecord | undefined> {
    return normalize(await this.sql.get(BY_ID, { id }));
  }

  /** The latest payment applied to each intent (DETECTED or CONFIRMED, applied_amount > 0), in one query. */
  async latestAppliedByIntents(intentIds: string[]): Promise<Map<string, PaymentRecord>> {
    return new Map((await this.sql.all(LATEST_APPLIED, { intentIds })).map((r) => [r.funding_intent_id, normalize(r)!]));
  }

  async byIntent(intentId: string): Promise<PaymentRecord[]> {
    return (await this.sql.all(BY_INTENT, { intentId })).map((r) => normalize(r)!);
  }

  async list(applicationId: string, environment: Environment, filters: PaymentFilters, page: PageRequest): Promise<PaymentRecord[]> {
    const query = dynamic<PaymentRecord>((k) => applicationPage(k, 'payments', applicationId, environment, page)
      .$if(!!filters.fundingIntentId, (q) => q.where('funding_intent_id', '=', filters.fundingIntentId!))
      .$if(!!filters.status, (q) => q.where('status', '=', filters.status!)), { bigint: true });
    return (await this.sql.all(query)).map((r) => normalize(r)!);
  }

  /** The next DETECTED payment due for verification, skipping `busy` (payments being confirmed right now). */
  async nextToConfirm(now: string, busy: ReadonlySet<string> = new Set()): Promise<PaymentRecord | undefined> {
    return normalize(await this.sql.get(NEXT_TO_CONFIRM, { now, busy: [...busy] }));
  }

  async markConfirmed(id: string, at: string): Promise<void> {
    await this.sql.run(MARK_CONFIRMED, { id, at });
  }

  /** The payment stops counting toward its intent (an underpayment refunded on its own). */
  async unapply(id: string, at: string): Promise<void> {
    await this.sql.run(UNAPPLY, { id, at });
  }

  async markFailed(id: string, code: string, message: string, at: string): Promise<void> {
    await this.sql.run(MARK_FAILED, { id, code, message, at });
  }

  async retryLater(id: string, attempts: number, nextAttemptAt: string): Promise<void> {
    await this.sql.run(RETRY_LATER, { id, attempts, nextAttemptAt });
  }
}
