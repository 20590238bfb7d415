import type { ExecutionRecord } from '../../records/route-executions.js';

/** The wire shape of a route execution (spec: RouteExecution). */
export function presentExecution(e: ExecutionRecord) {
  return {
    id: e.id,
    object: 'route_execution' as const,
    quote_id: e.quote_id,
    funding_intent_id: e.funding_intent_id,
    provider: e.provider,
    provider_execution_id: e.provider_execution_id,
    route_type: e.route_type,
    status: e.status,
    phase: e.phase,
    transaction_hashes: JSON.parse(e.transaction_hashes) as string[],
    failure: e.failure_code ? { code: e.failure_code, message: e.failure_message ?? '' } : null,
    started_at: e.started_at,
    completed_at: e.completed_at,
  };
}
