/**
 * Giving up a stalled conversion so its source funds can be refunded (DESIGN §4). Only a FAILED
 * or PAUSED execution may be given up: a PENDING/RUNNING one may be spending the deposit
 * account's funds right now. Called inside the refund's transaction, with the intent's move to
 * FAILED, so a retry/resume can never slip in between.
 */
import { isoNow } from '../../lib/time.js';
import type { QuotesRepo } from '../../records/quotes.js';
import type { ExecutionsRepo, ExecutionStatus } from '../../records/route-executions.js';

/** The failure code of an execution whose funds were refunded instead of converted. */
export const REFUNDED_CODE = 'refunded';

export class ConversionGate {
  constructor(private readonly executions: ExecutionsRepo, private readonly quotes: QuotesRepo) {}

  /** The status of the intent's current conversion, or null when it has none. */
  async status(intentId: string): Promise<ExecutionStatus | null> {
    return (await this.executions.byIntent(intentId))?.status ?? null;
  }

  /** FAILED for good: the message keeps the original cause, the code says why it can never run again. */
  async abandon(intentId: string, cause?: string): Promise<void> {
    const e = await this.executions.byIntent(intentId);
    if (!e) return;
    const at = isoNow();
    const message = `given up after ${cause ?? e.failure_code ?? 'a stall'}: the source funds are refunded, so it can no longer be retried or resumed`;
    await this.executions.update(e.id, { status: 'FAILED', failure_code: REFUNDED_CODE, failure_message: message, completed_at: at, updated_at: at });
    await this.quotes.setStatus(e.quote_id, 'FAILED', at, { failure_code: REFUNDED_CODE, failure_message: message });
  }
}
