/** Refund rows and SQL over them (records/README.md). */
import { dynamic, prepared, sqlOf, type Sql, type SqlSource } from '../db/sql.js';
import type { Environment } from '../domain/environment.js';
import { applicationPage, type PageRequest } from '../domain/page.js';

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

const BY_ID = prepared<RefundRecord, { id: string }>((k, p) => k.selectFrom('refunds').selectAll().where('id', '=', p('id')), { bigint: true });

const BY_PAYMENT = prepared<RefundRecord, { paymentId: string }>((k, p) =>
  k.selectFrom('refunds').selectAll().where('payment_id', '=', p('paymentId')).orderBy('created_at').orderBy('id'), { bigint: true });

const BY_PAYMENTS = prepared<RefundRecord, { paymentIds: string[] }>((k, p, d) =>
  k.selectFrom('refunds').selectAll().where(d.oneOf('payment_id', p('paymentIds'))).orderBy('created_at').orderBy('id'), { bigint: true });

const BY_INTENT = prepared<RefundRecord, { intentId: string }>((k, p) =>
  k.selectFrom('refunds').selectAll().where('funding_intent_id', '=', p('intentId')).orderBy('created_at').orderBy('id'), { bigint: true });

const NEXT_TO_RUN = prepared<RefundRecord, { now: string; busy: string[] }>((k, p, d) =>
  k.selectFrom('refunds').selectAll().where('status', 'in', ['PENDING', 'PROCESSING']).where('next_attempt_at', '<=', p('now'))
    .where((eb) => eb.not(d.oneOf('id', p('busy')))).orderBy('next_attempt_at').orderBy('id').limit(1), { bigint: true });

const OPEN_FOR_INTENT = prepared<{ open: number }, { intentId: string }>((k, p) =>
  k.selectFrom('refunds').select((eb) => eb.fn.countAll<number>().as('open'))
    .where('funding_intent_id', '=', p('intentId')).where('status', 'in', ['PENDING', 'PROCESSING']));

export class RefundsRepo {
  private readonly sql: Sql;

  constructor(db: SqlSource) {
    this.sql = sqlOf(db);
  }

  async insert(r: RefundRecord): Promise<void> {
    await this.sql.run(dynamic((k) => k.insertInto('refunds').values(r)));
  }

  async findById(id: string): Promise<RefundRecord | undefined> {
    return normalize(await this.sql.get(BY_ID, { id }));
  }

  async byPayment(paymentId: string): Promise<RefundRecord[]> {
    return (await this.sql.all(BY_PAYMENT, { paymentId })).map((r) => normalize(r)!);
  }

  /** The refunds of each payment (oldest first), in one query. */
  async byPayments(paymentIds: string[]): Promise<Map<string, RefundRecord[]>> {
    const byPayment = new Map<string, RefundRecord[]>(paymentIds.map((id) => [id, []]));
    for (const row of await this.sql.all(BY_PAYMENTS, { paymentIds })) byPayment.get(row.payment_id)?.push(normalize(row)!);
    return byPayment;
  }

  async byIntent(intentId: string): Promise<RefundRecord[]> {
    return (await this.sql.all(BY_INTENT, { intentId })).map((r) => normalize(r)!);
  }

  async list(applicationId: string, environment: Environment, filters: RefundFilters, page: PageRequest): Promise<RefundRecord[]> {
    const query = dynamic<RefundRecord>((k) => applicationPage(k, 'refunds', applicationId, environment, page)
      .$if(filters.fundingIntentId !== undefined, (q) => q.where('funding_intent_id', '=', filters.fundingIntentId!))
      .$if(filters.paymentId !== undefined, (q) => q.where('payment_id', '=', filters.paymentId!))
      .$if(filters.status !== undefined, (q) => q.where('status', '=', filters.status!)), { bigint: true });
    return (await this.sql.all(query)).map((r) => normalize(r)!);
  }

  /** The next refund to pay out, skipping those already being paid. */
  async nextToRun(now: string, busy: ReadonlySet<string> = new Set()): Promise<RefundRecord | undefined> {
    return normalize(await this.sql.get(NEXT_TO_RUN, { now, busy: [...busy] }));
  }

  async update(id: string, fields: Partial<RefundRecord>): Promise<void> {
    await this.sql.run(dynamic((k) => k.updateTable('refunds').set(fields).where('id', '=', id)));
  }

  /**
   * Moves the row on only while its status is one of `from`; false when another worker (a process
   * that took the pipeline over) moved it first, so the caller must not act on it again.
   */
  async updateFrom(id: string, from: Array<RefundRecord['status']>, fields: Partial<RefundRecord>): Promise<boolean> {
    return await this.sql.run(dynamic((k) => k.updateTable('refunds').set(fields).where('id', '=', id).where('status', 'in', from))) === 1;
  }

  /** Deposit-account refunds still to be paid from `address` (the account cannot retire before). */
  async openForIntent(intentId: string): Promise<number> {
    return Number((await this.sql.get(OPEN_FOR_INTENT, { intentId }))!.open);
  }
}
