import { deriveKey } from '../../lib/crypto.js';
import type { ClaimOwner } from '../../db/liveness.js';
import { EventsRepo } from '../events/repo.js';
import { EventsService } from '../events/service.js';
import { WebhookDeliveriesRepo } from './deliveries-repo.js';
import { WebhookDeliveriesService } from './deliveries-service.js';
import { WebhookEndpointsRepo } from './endpoints-repo.js';
import { WebhookEndpointsService } from './service.js';
import type { WebhookSettings } from './settings.js';
import { TargetPolicy, type HostResolver } from './targets.js';
import type { Sql } from '../../db/sql.js';
import type { Telemetry } from '../../ops/telemetry.js';

export { webhookRoutes } from './routes.js';
export { eventRoutes } from '../events/routes.js';

/** Tunables of webhook delivery; tests inject the clock and shorten the timeout. */
export interface WebhookOptions {
  /** milliseconds since the epoch */
  clock: () => number;
  /** per attempt; the spec promises receivers 10 s */
  timeoutMs: number;
  /** attempts in flight at once, so a hanging endpoint holds one slot, not the queue */
  concurrency: number;
  pollIntervalMs: number;
  /** a claim older than this is presumed dead (process killed) and claimed again */
  leaseMs: number;
  /** resolves endpoint host names before connecting; tests map names to addresses, the default is dns.lookup */
  lookup?: HostResolver;
}

export const DEFAULT_WEBHOOK_OPTIONS: WebhookOptions = {
  clock: Date.now,
  timeoutMs: 10_000,
  concurrency: 16,
  pollIntervalMs: 1_000,
  leaseMs: 30_000,
};

export interface WebhookServices {
  endpoints: WebhookEndpointsService;
  deliveries: WebhookDeliveriesService;
  events: EventsService;
  options: WebhookOptions;
}

/** Wired from services.ts; the worker (workers/webhook-delivery.ts) uses `deliveries`. */
export function createWebhookServices(
  deps: {
    sql: Sql; masterKey: Buffer; instance: ClaimOwner; telemetry?: Telemetry;
    config: { webhookRetryScheduleMs: number[]; stellar: string; webhooks: WebhookSettings };
  },
  overrides: Partial<WebhookOptions> = {},
): WebhookServices {
  const options = { ...DEFAULT_WEBHOOK_OPTIONS, ...overrides };
  const { sql } = deps;
  const secretsKey = deriveKey(deps.masterKey, 'webhook-secrets');
  const endpoints = new WebhookEndpointsRepo(sql);
  const deliveries = new WebhookDeliveriesRepo(sql, deps.instance);
  const events = new EventsRepo(sql);
  // the sandbox's test environment delivers anywhere: local receivers are what development needs
  const targets = new TargetPolicy(deps.config.stellar === 'sandbox', deps.config.webhooks.allowPrivate, options.lookup);
  return {
    endpoints: new WebhookEndpointsService({ sql, endpoints, deliveries, secretsKey, clock: options.clock, targets, maxEndpoints: deps.config.webhooks.maxEndpoints }),
    deliveries: new WebhookDeliveriesService({
      sql, endpoints, deliveries, events, secretsKey, clock: options.clock, retryScheduleMs: deps.config.webhookRetryScheduleMs, targets,
      inFlightPerApplication: deps.config.webhooks.inFlightPerApplication,
      ...(deps.telemetry ? { telemetry: deps.telemetry } : {}),
    }),
    events: new EventsService(events),
    options,
  };
}
