/** SQL over route executions; amounts as BigInt. */
import type { ExpressionBuilder } from 'kysely';
import { bindAll, dynamic, prepared, sqlOf, type Sql, type SqlSource } from '../db/sql.js';
import type { Environment } from '../domain/environment.js';

export type ExecutionStatus = 'PENDING' | 'RUNNING' | 'PAUSED' | 'SUCCEEDED' | 'FAILED';
export type ExecutionPhase = 'CREATED' | 'AWAITING_SOURCE_FUNDS' | 'PRICING' | 'SUBMITTING' | 'CONFIRMING' | 'COMPLETED';

export interface ExecutionRecord {
  id: string;
  quote_id: string;
  funding_intent_id: string;
  application_id: string;
  environment: Environment;
  provider: string;
  provider_execution_id: string | null;
  route_type: string;
  status: ExecutionStatus;
  phase: ExecutionPhase;
  transaction_hashes: string;
  source_asset: string;
  send_max: bigint;
  destination_amount: bigint;
  source_consumed: bigint | null;
  envelope_xdr: string | null;
  failure_code: string | null;
  failure_message: string | null;
  attempts: number;
  next_attempt_at: string;
  started_at: string | null;
  completed_at: string | null;
  created_at: string;
  updated_at: string;
}

type Patch = Partial<Omit<ExecutionRecord, 'id' | 'quote_id' | 'funding_intent_id'>>;

const norm = (r: ExecutionRecord | undefined) => r && { ...r, attempts: Number(r.attempts) };

const COLUMNS = ['id', 'quote_id', 'funding_intent_id', 'application_id', 'environment', 'provider', 'provider_execution_id', 'route_type',
  'status', 'phase', 'transaction_hashes', 'source_asset', 'send_max', 'destination_amount', 'source_consumed', 'envelope_xdr', 'failure_code',
  'failure_message', 'attempts', 'next_attempt_at', 'started_at', 'completed_at', 'created_at', 'updated_at'] as const satisfies readonly (keyof ExecutionRecord)[];

const INSERT = prepared<never, ExecutionRecord>((k, p) => k.insertInto('route_executions').values(bindAll(p, COLUMNS)));

const DELETE_UNSTARTED = prepared<never, { intentId: string; keepQuoteId: string }>((k, p) =>
  k.deleteFrom('route_executions').where('funding_intent_id', '=', p('intentId')).where('quote_id', '<>', p('keepQuoteId'))
    .where('status', '=', 'PENDING').where('phase', '=', 'CREATED'));

const BY_ID = prepared<ExecutionRecord, { id: string }>((k, p) => k.selectFrom('route_executions').selectAll().where('id', '=', p('id')), { bigint: true });

const BY_QUOTE = prepared<ExecutionRecord, { quoteId: string }>((k, p) =>
  k.selectFrom('route_executions').selectAll().where('quote_id', '=', p('quoteId')), { bigint: true });

const BY_QUOTES = prepared<ExecutionRecord, { quoteIds: string[] }>((k, p, d) =>
  k.selectFrom('route_executions').selectAll().where(d.oneOf('quote_id', p('quoteIds'))), { bigint: true });

const BY_INTENT = prepared<ExecutionRecord, { intentId: string }>((k, p) =>
  k.selectFrom('route_executions').selectAll().where('funding_intent_id', '=', p('intentId')).orderBy('created_at', 'desc').limit(1), { bigint: true });

const NEXT_TO_RUN = prepared<ExecutionRecord, { now: string }>((k, p) =>
  k.selectFrom('route_executions').selectAll().where('status', 'in', ['PENDING', 'RUNNING']).where('phase', 'not in', ['CREATED', 'AWAITING_SOURCE_FUNDS'])
    .where('next_attempt_at', '<=', p('now')).orderBy('next_attempt_at').orderBy('id').limit(1), { bigint: true });

const NEXT_TO_START = prepared<ExecutionRecord, { now: string }>((k, p) =>
  k.selectFrom('route_executions as rex').innerJoin('funding_intents as fi', 'fi.id', 'rex.funding_intent_id').selectAll('rex')
    .where('rex.status', '=', 'PENDING').where('rex.phase', 'in', ['CREATED', 'AWAITING_SOURCE_FUNDS']).where('fi.status', '=', 'PAYMENT_CONFIRMED')
    .whereRef('fi.quote_id', '=', 'rex.quote_id').where('rex.next_attempt_at', '<=', p('now'))
    .orderBy('rex.created_at').orderBy('rex.id').limit(1), { bigint: true });

const MARK_AWAITING_FUNDS = prepared<never, { at: string }>((k, p) =>
  k.updateTable('route_executions').set({ phase: 'AWAITING_SOURCE_FUNDS', updated_at: p('at') }).where('status', '=', 'PENDING').where('phase', '=', 'CREATED')
    .where('funding_intent_id', 'in', k.selectFrom('funding_intents').select('id').where('status', 'in', ['PARTIALLY_FUNDED', 'PAYMENT_DETECTED'])));

/**
 * What the intent's CONFIRMED payments applied, as a BIGINT on both engines (PostgreSQL's SUM of
 * a bigint is a numeric; SQLite's CAST to an integer affinity leaves an integer sum as it is).
 */
const applied = (eb: ExpressionBuilder<any, any>) => eb.selectFrom('payments as p')
  .select((e) => e.cast(e.fn.coalesce(e.fn.sum('p.applied_amount'), e.lit(0)), 'bigint').as('applied'))
  .whereRef('p.funding_intent_id', '=', 'rex.funding_intent_id').where('p.status', '=', 'CONFIRMED');

const REMAINDER_OF = prepared<{ spent: bigint; applied: bigint }, { intentId: string }>((k, p) =>
  k.selectFrom('route_executions as rex').select((eb) => ['rex.source_consumed as spent', applied(eb).as('applied')])
    .where('rex.funding_intent_id', '=', p('intentId')).where('rex.status', '=', 'SUCCEEDED'), { bigint: true });

type RemainderRow = { intent_id: string; spent: bigint; applied: bigint; payment_id: string | null };
const REMAINDERS = prepared<RemainderRow, { intentIds: string[] }>((k, p, d) =>
  k.selectFrom('route_executions as rex').select((eb) => ['rex.funding_intent_id as intent_id', 'rex.source_consumed as spent', applied(eb).as('applied'),
    eb.selectFrom('payments as p').select('p.id').whereRef('p.funding_intent_id', '=', 'rex.funding_intent_id').where('p.status', '=', 'CONFIRMED')
      .where('p.applied_amount', '>', eb.lit(0)).orderBy('p.created_at', 'desc').orderBy('p.id', 'desc').limit(1).as('payment_id')])
    .where(d.oneOf('rex.funding_intent_id', p('intentIds'))).where('rex.status', '=', 'SUCCEEDED'), { bigint: true });

const LAST_APPLIED_PAYMENT = prepared<{ id: string }, { intentId: string }>((k, p) =>
  k.selectFrom('payments').select('id').where('funding_intent_id', '=', p('intentId')).where('status', '=', 'CONFIRMED').where((eb) => eb('applied_amount', '>', eb.lit(0)))
    .orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1));

export class ExecutionsRepo {
  private readonly sql: Sql;

  constructor(db: SqlSource) {
    this.sql = sqlOf(db);
  }

  async insert(e: ExecutionRecord): Promise<void> {
    await this.sql.run(INSERT, e);
  }

  async update(id: string, patch: Patch): Promise<void> {
    if (Object.keys(patch).length === 0) return;
    await this.sql.run(dynamic((k) => k.updateTable('route_executions').set(patch).where('id', '=', id)));
  }

  async deleteUnstarted(intentId: string, keepQuoteId: string): Promise<void> {
    await this.sql.run(DELETE_UNSTARTED, { intentId, keepQuoteId });
  }

  async findById(id: string): Promise<ExecutionRecord | undefined> {
    return norm(await this.sql.get(BY_ID, { id }));
  }

  async byQuote(quoteId: string): Promise<ExecutionRecord | undefined> {
    return norm(await this.sql.get(BY_QUOTE, { quoteId }));
  }

  /** The execution of each quote, in one query. */
  async byQuotes(quoteIds: string[]): Promise<Map<string, ExecutionRecord>> {
    return new Map((await this.sql.all(BY_QUOTES, { quoteIds })).map((r) => [r.quote_id, norm(r)!]));
  }

  async byIntent(intentId: string): Promise<ExecutionRecord | undefined> {
    return norm(await this.sql.get(BY_INTENT, { intentId }));
  }

  /** Started executions due to run (retried, resumed, or interrupted by a crash). */
  async nextToRun(now: string): Promise<ExecutionRecord | undefined> {
    return norm(await this.sql.get(NEXT_TO_RUN, { now }));
  }

  /** Waiting executions whose intent's source funds are now confirmed. */
  async nextToStart(now: string): Promise<ExecutionRecord | undefined> {
    return norm(await this.sql.get(NEXT_TO_START, { now }));
  }

  /** Money arrived but is not confirmed yet: the execution waits for its source funds. */
  async markAwaitingFunds(at: string): Promise<void> {
    await this.sql.run(MARK_AWAITING_FUNDS, { at });
  }

  /** What the conversion left of the applied source funds (ROUTE_REMAINDER), once it succeeded. */
  async remainderOf(intentId: string): Promise<bigint> {
    const row = await this.sql.get(REMAINDER_OF, { intentId });
    return row && row.applied > row.spent ? row.applied - row.spent : 0n;
  }

  /**
   * remainderFor over a page, in one query: per intent, the payment the remainder belongs to (its
   * latest CONFIRMED applied payment) and the remainder of its SUCCEEDED execution.
   */
  async remainders(intentIds: string[]): Promise<Map<string, { paymentId: string | null; remainder: bigint }>> {
    const out = new Map<string, { paymentId: string | null; remainder: bigint }>();
    for (const r of await this.sql.all(REMAINDERS, { intentIds })) {
      // as remainderOf's single-row read: the first SUCCEEDED execution of the intent counts
      if (!out.has(r.intent_id)) out.set(r.intent_id, { paymentId: r.payment_id, remainder: r.applied > r.spent ? r.applied - r.spent : 0n });
    }
    return out;
  }

  /** The remainder belongs to the intent's latest applied payment (the one that completed the funds). */
  async remainderFor(intentId: string, paymentId: string): Promise<bigint> {
    const last = (await this.sql.get(LAST_APPLIED_PAYMENT, { intentId }))?.id;
    return last === paymentId ? await this.remainderOf(intentId) : 0n;
  }
}
