/** SQL over route executions; amounts as BigInt. */
import type { Db } from '../../db/connection.js';
import type { Environment } from '../../http/context.js';

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

export class ExecutionsRepo {
  constructor(private readonly db: Db) {}

  insert(e: ExecutionRecord): void {
    const names = Object.keys(e);
    this.db.prepare(`INSERT INTO route_executions (${names.join(', ')}) VALUES (${names.map((n) => `@${n}`).join(', ')})`).run(e);
  }

  update(id: string, patch: Patch): void {
    const names = Object.keys(patch);
    if (names.length === 0) return;
    this.db.prepare(`UPDATE route_executions SET ${names.map((n) => `${n} = @${n}`).join(', ')} WHERE id = @id`).run({ ...patch, id });
  }

  deleteUnstarted(intentId: string, keepQuoteId: string): void {
    this.db.prepare("DELETE FROM route_executions WHERE funding_intent_id = ? AND quote_id <> ? AND status = 'PENDING' AND phase = 'CREATED'")
      .run(intentId, keepQuoteId);
  }

  findById(id: string): ExecutionRecord | undefined {
    return norm(this.db.prepare('SELECT * FROM route_executions WHERE id = ?').safeIntegers(true).get(id) as ExecutionRecord | undefined);
  }

  byQuote(quoteId: string): ExecutionRecord | undefined {
    return norm(this.db.prepare('SELECT * FROM route_executions WHERE quote_id = ?').safeIntegers(true).get(quoteId) as ExecutionRecord | undefined);
  }

  /** The execution of each quote, in one query. */
  byQuotes(quoteIds: string[]): Map<string, ExecutionRecord> {
    const rows = this.db.prepare('SELECT * FROM route_executions WHERE quote_id IN (SELECT value FROM json_each(?))').safeIntegers(true).all(JSON.stringify(quoteIds)) as ExecutionRecord[];
    return new Map(rows.map((r) => [r.quote_id, norm(r)!]));
  }

  byIntent(intentId: string): ExecutionRecord | undefined {
    return norm(this.db.prepare('SELECT * FROM route_executions WHERE funding_intent_id = ? ORDER BY created_at DESC LIMIT 1').safeIntegers(true).get(intentId) as ExecutionRecord | undefined);
  }

  /** Started executions due to run (retried, resumed, or interrupted by a crash). */
  nextToRun(now: string): ExecutionRecord | undefined {
    return norm(this.db.prepare(`SELECT * FROM route_executions WHERE status IN ('PENDING', 'RUNNING') AND phase NOT IN ('CREATED', 'AWAITING_SOURCE_FUNDS')
      AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT 1`).safeIntegers(true).get(now) as ExecutionRecord | undefined);
  }

  /** Waiting executions whose intent's source funds are now confirmed. */
  nextToStart(now: string): ExecutionRecord | undefined {
    return norm(this.db.prepare(`SELECT rex.* FROM route_executions rex JOIN funding_intents fi ON fi.id = rex.funding_intent_id
      WHERE rex.status = 'PENDING' AND rex.phase IN ('CREATED', 'AWAITING_SOURCE_FUNDS') AND fi.status = 'PAYMENT_CONFIRMED' AND fi.quote_id = rex.quote_id
      AND rex.next_attempt_at <= ? ORDER BY rex.created_at, rex.id LIMIT 1`).safeIntegers(true).get(now) as ExecutionRecord | undefined);
  }

  /** Money arrived but is not confirmed yet: the execution waits for its source funds. */
  markAwaitingFunds(at: string): void {
    this.db.prepare(`UPDATE route_executions SET phase = 'AWAITING_SOURCE_FUNDS', updated_at = ? WHERE status = 'PENDING' AND phase = 'CREATED'
      AND funding_intent_id IN (SELECT id FROM funding_intents WHERE status IN ('PARTIALLY_FUNDED', 'PAYMENT_DETECTED'))`).run(at);
  }

  /** What the conversion left of the applied source funds (ROUTE_REMAINDER), once it succeeded. */
  remainderOf(intentId: string): bigint {
    const row = this.db.prepare(`SELECT rex.source_consumed AS spent,
        (SELECT COALESCE(SUM(applied_amount), 0) FROM payments p WHERE p.funding_intent_id = rex.funding_intent_id AND p.status = 'CONFIRMED') AS applied
      FROM route_executions rex WHERE rex.funding_intent_id = ? AND rex.status = 'SUCCEEDED'`).safeIntegers(true).get(intentId) as { spent: bigint; applied: bigint } | undefined;
    return row && row.applied > row.spent ? row.applied - row.spent : 0n;
  }

  /**
   * remainderFor over a page, in one query: per intent, the payment the remainder belongs to (its
   * latest CONFIRMED applied payment) and the remainder of its SUCCEEDED execution.
   */
  remainders(intentIds: string[]): Map<string, { paymentId: string | null; remainder: bigint }> {
    const rows = this.db.prepare(`SELECT rex.funding_intent_id AS intent_id, rex.source_consumed AS spent,
        (SELECT COALESCE(SUM(applied_amount), 0) FROM payments p WHERE p.funding_intent_id = rex.funding_intent_id AND p.status = 'CONFIRMED') AS applied,
        (SELECT id FROM payments p WHERE p.funding_intent_id = rex.funding_intent_id AND p.status = 'CONFIRMED' AND p.applied_amount > 0
          ORDER BY p.created_at DESC, p.id DESC LIMIT 1) AS payment_id
      FROM route_executions rex WHERE rex.funding_intent_id IN (SELECT value FROM json_each(?)) AND rex.status = 'SUCCEEDED'`)
      .safeIntegers(true).all(JSON.stringify(intentIds)) as { intent_id: string; spent: bigint; applied: bigint; payment_id: string | null }[];
    const out = new Map<string, { paymentId: string | null; remainder: bigint }>();
    for (const r of rows) {
      // as remainderOf's single-row read: the first SUCCEEDED execution of the intent counts
      if (!out.has(r.intent_id)) out.set(r.intent_id, { paymentId: r.payment_id, remainder: r.applied > r.spent ? r.applied - r.spent : 0n });
    }
    return out;
  }

  /** The remainder belongs to the intent's latest applied payment (the one that completed the funds). */
  remainderFor(intentId: string, paymentId: string): bigint {
    const last = this.db.prepare(`SELECT id FROM payments WHERE funding_intent_id = ? AND status = 'CONFIRMED' AND applied_amount > 0
      ORDER BY created_at DESC, id DESC LIMIT 1`).pluck().get(intentId) as string | undefined;
    return last === paymentId ? this.remainderOf(intentId) : 0n;
  }
}
