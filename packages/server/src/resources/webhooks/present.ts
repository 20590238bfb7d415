import type { AttemptRecord, DeliveryRecord } from './deliveries-repo.js';
import type { EndpointRecord } from './endpoints-repo.js';

export function presentEndpoint(endpoint: EndpointRecord, now: number) {
  const rotationEnds = endpoint.previous_secret_expires_at;
  return {
    id: endpoint.id,
    object: 'webhook_endpoint' as const,
    url: endpoint.url,
    events: JSON.parse(endpoint.events) as string[],
    description: endpoint.description,
    enabled: endpoint.enabled === 1,
    livemode: endpoint.environment === 'live',
    // once the overlap is over there is no previous secret to speak of
    secret_rotation_expires_at: rotationEnds && Date.parse(rotationEnds) > now ? rotationEnds : null,
    created_at: endpoint.created_at,
    updated_at: endpoint.updated_at,
  };
}

export function presentAttempt(attempt: AttemptRecord) {
  return {
    number: attempt.number,
    status_code: attempt.status_code,
    latency_ms: attempt.latency_ms,
    response_excerpt: attempt.response_excerpt,
    error: attempt.error,
    attempted_at: attempt.attempted_at,
  };
}

export function presentDelivery(delivery: DeliveryRecord, attempts: AttemptRecord[]) {
  return {
    id: delivery.id,
    object: 'webhook_delivery' as const,
    webhook_endpoint_id: delivery.endpoint_id,
    event_id: delivery.event_id,
    event_type: delivery.event_type,
    status: delivery.status,
    attempts: attempts.filter((a) => a.delivery_id === delivery.id).map(presentAttempt),
    next_attempt_at: delivery.status === 'PENDING' ? delivery.next_attempt_at : null,
    created_at: delivery.created_at,
    updated_at: delivery.updated_at,
  };
}
