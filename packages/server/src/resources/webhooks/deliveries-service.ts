import { insertEvent, notifyOutbox } from '../../db/outbox.js';
import { ApiError, notFound } from '../../http/api-error.js';
import { toList } from '../../http/pagination.js';
import type { PageRequest } from '../../domain/page.js';
import { newId, randomToken } from '../../lib/ids.js';
import { isoNow } from '../../lib/time.js';
import type { EventRecord, EventsRepo } from '../events/repo.js';
import type { AttemptRecord, Claim, DeliveryFilters, DeliveryRecord, WebhookDeliveriesRepo } from './deliveries-repo.js';
import type { EndpointRecord, WebhookEndpointsRepo } from './endpoints-repo.js';
import { presentDelivery } from './present.js';
import { signingSecrets } from './secrets.js';
import { ownEndpoint, type WebhookCaller } from './service.js';
import type { DeliveryTarget, TargetPolicy } from './targets.js';
import type { Sql } from '../../db/sql.js';
import type { Telemetry } from '../../ops/telemetry.js';

/** One endpoint's share of the delivery pool (16 by default): a hanging receiver holds 4 slots at most. */
export const PER_ENDPOINT_IN_FLIGHT = 4;

export interface WebhookDeliveriesDeps {
  sql: Sql;
  endpoints: WebhookEndpointsRepo;
  deliveries: WebhookDeliveriesRepo;
  events: EventsRepo;
  secretsKey: Buffer;
  clock: () => number;
  /** delays before attempts 2, 3, …; after the last one a delivery is FAILED */
  retryScheduleMs: number[];
  /** counts attempts and logs a delivery given up */
  telemetry?: Telemetry;
  /** where deliveries may connect (the sandbox's test environment: anywhere) */
  targets: TargetPolicy;
  /** attempts of one application's endpoints in flight at once (FUNDKIT_WEBHOOK_APPLICATION_IN_FLIGHT) */
  inFlightPerApplication: number;
}

/** What one attempt needs: the stored body (sent byte for byte), where, and the secrets to sign with. */
export interface PreparedAttempt {
  claim: Claim;
  url: string;
  body: string;
  eventId: string;
  secrets: string[];
  /** how the attempt connects: checking every address outside the sandbox's test environment */
  target: DeliveryTarget;
}

/** What came back from one attempt. */
export interface AttemptOutcome {
  statusCode: number | null;
  latencyMs: number | null;
  responseExcerpt: string | null;
  error: string | null;
}

const FAN_OUT_BATCH = 100;

export class WebhookDeliveriesService {
  constructor(private readonly deps: WebhookDeliveriesDeps) {}

  private nowIso(): string {
    return isoNow(this.deps.clock());
  }

  private async present(delivery: DeliveryRecord) {
    return presentDelivery(delivery, await this.deps.deliveries.attempts([delivery.id]));
  }

  private async newDelivery(endpoint: EndpointRecord, event: Pick<EventRecord, 'id' | 'type'>, now: string): Promise<DeliveryRecord> {
    const delivery = {
      id: newId('webhook_delivery'), endpoint_id: endpoint.id, event_id: event.id, event_type: event.type,
      status: 'PENDING' as const, next_attempt_at: now, created_at: now, updated_at: now,
    };
    await this.deps.deliveries.insert(delivery);
    return { ...delivery, attempt_count: 0, locked_until: null, claim_token: null };
  }

  /** A webhook.test event for this endpoint only: it is marked fanned out as it is written. */
  async sendTest(caller: WebhookCaller, endpointId: string) {
    const endpoint = await ownEndpoint(this.deps.endpoints, caller, endpointId);
    if (endpoint.enabled !== 1) throw new ApiError('CONFLICT', 'the webhook endpoint is disabled; enable it to send a test event');
    const delivery = await this.deps.sql.transaction(async () => {
      const data = { webhook_endpoint_id: endpoint.id, message: 'A test event from Fundkit: this endpoint receives and verifies webhooks.' };
      const eventId = await insertEvent(this.deps.sql, { type: 'webhook.test', applicationId: caller.applicationId, environment: caller.environment, data });
      const now = this.nowIso();
      await this.deps.events.markFannedOut(eventId, now);
      return this.newDelivery(endpoint, { id: eventId, type: 'webhook.test' }, now);
    });
    return this.present(delivery);
  }

  async list(caller: WebhookCaller, endpointId: string, filters: DeliveryFilters, page: PageRequest) {
    const endpoint = await ownEndpoint(this.deps.endpoints, caller, endpointId);
    // one snapshot: a delivery read PENDING must not show the attempt that has just finished it
    const { rows, attempts } = await this.deps.sql.snapshot(async () => {
      const rows = await this.deps.deliveries.list(endpoint.id, filters, page);
      return { rows, attempts: await this.deps.deliveries.attempts(rows.slice(0, page.limit).map((row) => row.id)) };
    });
    return toList(rows, page, (row) => presentDelivery(row, attempts));
  }

  /** A new attempt now, whatever the state; a failing one continues the schedule where it was. */
  async redeliver(caller: WebhookCaller, endpointId: string, deliveryId: string) {
    const endpoint = await ownEndpoint(this.deps.endpoints, caller, endpointId);
    const delivery = await this.deps.deliveries.findById(deliveryId);
    if (!delivery || delivery.endpoint_id !== endpoint.id) throw notFound('webhook delivery');
    if (endpoint.enabled !== 1) throw new ApiError('CONFLICT', 'the webhook endpoint is disabled; enable it to redeliver');
    await this.deps.deliveries.redeliver(delivery.id, this.nowIso());
    notifyOutbox(this.deps.sql);
    return this.present((await this.deps.deliveries.findById(delivery.id))!);
  }

  /** One delivery per subscribed endpoint for each new event; the marker makes it happen once. */
  async fanOut(): Promise<number> {
    // keeps the events list's backlog of unplaced events small, though nobody lists them
    await this.deps.events.sequenceCommitted();
    const events = await this.deps.events.pendingFanOut(FAN_OUT_BATCH);
    for (const event of events) {
      await this.deps.sql.transaction(async () => {
        const now = this.nowIso();
        // another process may have fanned it out meanwhile: the guarded update decides (on
        // PostgreSQL the second waits on the row and then finds it marked), so no writer lock
        if (!await this.deps.events.markFannedOut(event.id, now)) return;
        for (const endpoint of await this.deps.endpoints.subscribers(event.application_id, event.environment, event.type)) {
          await this.newDelivery(endpoint, event, now);
        }
      }, { selfLocking: true });
    }
    return events.length;
  }

  /** Claims due deliveries, at most PER_ENDPOINT_IN_FLIGHT per endpoint and inFlightPerApplication per application in flight (fairness). */
  async claim(limit: number, leaseMs: number): Promise<Claim[]> {
    if (limit <= 0) return [];
    const now = this.deps.clock();
    return this.deps.deliveries.claimDue(isoNow(now), isoNow(now + leaseMs), limit, () => randomToken(12), {
      perEndpoint: PER_ENDPOINT_IN_FLIGHT, perApplication: this.deps.inFlightPerApplication,
    });
  }

  /** Milliseconds until the next delivery falls due (0 if one is due now), or null if none is pending. */
  async msUntilNextDue(): Promise<number | null> {
    const next = await this.deps.deliveries.nextDueAt();
    return next === null ? null : Math.max(0, Date.parse(next) - this.deps.clock());
  }

  /** Null when the endpoint vanished after the claim (its deliveries were abandoned). */
  async prepare(claim: Claim): Promise<PreparedAttempt | null> {
    const endpoint = await this.deps.endpoints.findAny(claim.delivery.endpoint_id);
    const event = await this.deps.events.findById(claim.delivery.event_id);
    if (!endpoint || endpoint.deleted_at || !event) return null;
    const secrets = signingSecrets(endpoint, this.deps.secretsKey, this.deps.clock());
    const target = this.deps.targets.forEnvironment(endpoint.environment);
    return { claim, url: endpoint.url, body: event.payload, eventId: event.id, secrets, target };
  }

  /** Records the attempt and moves the delivery on: SUCCEEDED on 2xx, else the next retry or FAILED. */
  async record(claim: Claim, outcome: AttemptOutcome, attemptedAt: number): Promise<void> {
    const success = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
    const delay = this.deps.retryScheduleMs[claim.number - 1];
    const now = this.deps.clock();
    const attempt: AttemptRecord = {
      delivery_id: claim.delivery.id, number: claim.number, status_code: outcome.statusCode, latency_ms: outcome.latencyMs,
      response_excerpt: outcome.responseExcerpt, error: outcome.error, attempted_at: isoNow(attemptedAt),
    };
    await this.deps.sql.transaction(async () => {
      await this.deps.deliveries.insertAttempt(attempt);
      if (success) await this.deps.deliveries.finish(claim.delivery.id, claim.token, 'SUCCEEDED', null, isoNow(now));
      else if (delay === undefined) await this.deps.deliveries.finish(claim.delivery.id, claim.token, 'FAILED', null, isoNow(now));
      else await this.deps.deliveries.finish(claim.delivery.id, claim.token, 'PENDING', isoNow(now + delay), isoNow(now));
    }, { selfLocking: true });
    this.deps.telemetry?.deliveryAttempt(success ? 'succeeded' : delay === undefined ? 'failed' : 'retrying', {
      delivery: claim.delivery.id, endpoint: claim.delivery.endpoint_id, event_id: claim.delivery.event_id, status: outcome.statusCode,
    });
  }

  /** Gives an unsent claim back (shutdown), so a restart sends it without waiting for the lease. */
  async release(claim: Claim): Promise<void> {
    await this.deps.deliveries.release(claim.delivery.id, claim.token);
  }

  /** Closes the delivery clients' idle connections (the worker's stop). */
  async closeConnections(): Promise<void> {
    await this.deps.targets.close();
  }

  /** Ends a claim whose endpoint is gone, without an attempt. */
  async drop(claim: Claim): Promise<void> {
    await this.deps.deliveries.finish(claim.delivery.id, claim.token, 'FAILED', null, this.nowIso());
  }
}
