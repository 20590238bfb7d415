/** A route execution is created with its accepted quote (PENDING, CREATED) and waits for the funds. */
import { newId } from '../../lib/ids.js';
import { isoNow } from '../../lib/time.js';
import type { QuoteRecord } from '../../records/quotes.js';
import type { ExecutionRecord, ExecutionsRepo } from '../../records/route-executions.js';

export function newExecution(q: QuoteRecord): ExecutionRecord {
  const now = isoNow();
  return {
    id: newId('route_execution'), quote_id: q.id, funding_intent_id: q.funding_intent_id!, application_id: q.application_id,
    environment: q.environment, provider: q.route_provider, provider_execution_id: null, route_type: q.route_type, status: 'PENDING',
    phase: 'CREATED', transaction_hashes: '[]', source_asset: q.source_asset, send_max: q.source_amount, destination_amount: q.destination_amount,
    source_consumed: null, envelope_xdr: null, failure_code: null, failure_message: null, attempts: 0, next_attempt_at: now,
    started_at: null, completed_at: null, created_at: now, updated_at: now,
  };
}

/** Inside the accept transaction: executions of quotes this one supersedes never started, so they go. */
export async function replaceExecution(executions: ExecutionsRepo, q: QuoteRecord): Promise<void> {
  await executions.deleteUnstarted(q.funding_intent_id!, q.id);
  if (q.route_type === 'STELLAR_PATH_PAYMENT' && !await executions.byQuote(q.id)) await executions.insert(newExecution(q));
}
