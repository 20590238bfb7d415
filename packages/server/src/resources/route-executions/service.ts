/** Route executions over HTTP: retrieve, retry (FAILED only) and resume (PAUSED only), never after a refund gave their funds up. */
import { ApiError, notFound } from '../../http/api-error.js';
import { isoNow } from '../../lib/time.js';
import { maxBig } from '../../lib/money.js';
import type { Caller } from '../../domain/caller.js';
import type { QuoteIntentsRepo } from '../../records/quote-intent-link.js';
import type { QuotesRepo } from '../../records/quotes.js';
import { REFUNDED_CODE } from './abandon.js';
import { presentExecution } from './present.js';
import type { ExecutionRecord, ExecutionsRepo } from '../../records/route-executions.js';
import type { Sql } from '../../db/sql.js';

export interface ExecutionsDeps {
  sql: Sql;
  executions: ExecutionsRepo;
  quotes: QuotesRepo;
  intents: QuoteIntentsRepo;
  /** wake the route worker */
  nudge: () => void;
}

export class RouteExecutionsService {
  constructor(private readonly deps: ExecutionsDeps) {}

  private async load(caller: Caller, id: string): Promise<ExecutionRecord> {
    const e = await this.deps.executions.findById(id);
    if (!e || e.application_id !== caller.applicationId) throw notFound('route execution');
    if (e.environment !== caller.environment) {
      throw new ApiError('FORBIDDEN', `this route execution belongs to the ${e.environment} environment; use a ${e.environment} key`);
    }
    return e;
  }

  async get(caller: Caller, id: string) {
    return presentExecution(await this.load(caller, id));
  }

  /** FAILED → PENDING at PRICING: re-priced within the quote's slippage (same sendMax). */
  async retry(caller: Caller, id: string) {
    return this.restart((await this.load(caller, id)).id, 'PENDING', async (e) => {
      if (e.status !== 'FAILED') throw new ApiError('EXECUTION_NOT_FAILED', `a ${e.status} route execution cannot be retried; only a FAILED one can`);
      await this.assertFundsHeld(e, 'EXECUTION_NOT_FAILED');
      return e.send_max;
    });
  }

  /** PAUSED → RUNNING at the current price: every source unit received may be spent now. */
  async resume(caller: Caller, id: string) {
    return this.restart((await this.load(caller, id)).id, 'RUNNING', async (e) => {
      if (e.status !== 'PAUSED') throw new ApiError('EXECUTION_NOT_RESUMABLE', `a ${e.status} route execution cannot be resumed; only a PAUSED one can`);
      const intent = await this.assertFundsHeld(e, 'EXECUTION_NOT_RESUMABLE');
      return maxBig(e.send_max, intent.received_amount);
    });
  }

  /** Only a ROUTING intent's funds are there to convert: a refund gave them up (DESIGN §4). */
  private async assertFundsHeld(e: ExecutionRecord, code: 'EXECUTION_NOT_FAILED' | 'EXECUTION_NOT_RESUMABLE') {
    const intent = (await this.deps.intents.findById(e.funding_intent_id))!;
    if (e.failure_code === REFUNDED_CODE || intent.status !== 'ROUTING') {
      throw new ApiError(code, `the intent is ${intent.status}, not ROUTING: a refund gave this route execution's funds up, so it can never run again`);
    }
    return intent;
  }

  /** Checks and restarts in one transaction, so a refund giving the funds up cannot interleave. */
  private async restart(id: string, status: 'PENDING' | 'RUNNING', check: (e: ExecutionRecord) => Promise<bigint>) {
    const restarted = await this.deps.sql.transaction(async () => {
      const e = (await this.deps.executions.findById(id))!;
      const sendMax = await check(e);
      const at = isoNow();
      // a new envelope: the stored one was applied and failed, so it can never succeed
      await this.deps.executions.update(e.id, {
        status, phase: 'PRICING', send_max: sendMax, envelope_xdr: null, failure_code: null, failure_message: null,
        attempts: 0, next_attempt_at: at, completed_at: null, updated_at: at,
      });
      await this.deps.quotes.setStatus(e.quote_id, 'EXECUTING', at);
      return (await this.deps.executions.findById(id))!;
    });
    // the answer is the execution as this call left it: read after the nudge, a woken worker may already have moved it on
    this.deps.nudge();
    return presentExecution(restarted);
  }
}
