import { ApiError, notFound } from '../../http/api-error.js';
import type { Environment } from '../../domain/environment.js';
import { toList } from '../../http/pagination.js';
import type { PageRequest } from '../../domain/page.js';
import { encryptSecret } from '../../lib/crypto.js';
import { newId } from '../../lib/ids.js';
import { isoNow } from '../../lib/time.js';
import type { WebhookDeliveriesRepo } from './deliveries-repo.js';
import type { EndpointChanges, EndpointRecord, WebhookEndpointsRepo } from './endpoints-repo.js';
import { presentEndpoint } from './present.js';
import { newWebhookSecret, ROTATION_OVERLAP_MS } from './secrets.js';
import type { TargetPolicy } from './targets.js';
import { checkWebhookUrl } from './url.js';
import type { Sql } from '../../db/sql.js';

/** The application and environment acting (from the API key). */
export interface WebhookCaller {
  applicationId: string;
  environment: Environment;
}

export interface CreateEndpointInput {
  url: string;
  events: string[];
  description?: string;
}

export interface UpdateEndpointInput {
  url?: string;
  events?: string[];
  description?: string | null;
  enabled?: boolean;
}

export interface WebhookEndpointsDeps {
  sql: Sql;
  endpoints: WebhookEndpointsRepo;
  deliveries: WebhookDeliveriesRepo;
  /** AES-256-GCM key for endpoint secrets */
  secretsKey: Buffer;
  /** milliseconds since the epoch; injected so tests can move past the rotation overlap */
  clock: () => number;
  /** where endpoints may point (checked at registration and again at delivery) */
  targets: TargetPolicy;
  /** endpoints an application has at most per environment (FUNDKIT_WEBHOOK_MAX_ENDPOINTS) */
  maxEndpoints: number;
}

/** An endpoint of the caller: another application's is invisible, another environment's forbidden. */
export async function ownEndpoint(repo: WebhookEndpointsRepo, caller: WebhookCaller, id: string): Promise<EndpointRecord> {
  const endpoint = await repo.findLive(id);
  if (!endpoint || endpoint.application_id !== caller.applicationId) throw notFound('webhook endpoint');
  if (endpoint.environment !== caller.environment) {
    throw new ApiError('FORBIDDEN', `this webhook endpoint belongs to the ${endpoint.environment} environment; use a ${endpoint.environment} key`);
  }
  return endpoint;
}

export class WebhookEndpointsService {
  constructor(private readonly deps: WebhookEndpointsDeps) {}

  private present(endpoint: EndpointRecord) {
    return presentEndpoint(endpoint, this.deps.clock());
  }

  private withSecret(endpoint: EndpointRecord, secret: string) {
    return { ...this.present(endpoint), secret };
  }

  async create(caller: WebhookCaller, input: CreateEndpointInput) {
    const now = isoNow(this.deps.clock());
    const secret = newWebhookSecret();
    const endpoint: EndpointRecord = {
      id: newId('webhook_endpoint'),
      application_id: caller.applicationId,
      environment: caller.environment,
      url: checkWebhookUrl(input.url, caller.environment, this.deps.targets),
      events: JSON.stringify(input.events),
      description: input.description ?? null,
      enabled: 1,
      secret_encrypted: encryptSecret(this.deps.secretsKey, secret),
      previous_secret_encrypted: null,
      previous_secret_expires_at: null,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    };
    // counted and inserted in one writer transaction, so two creates at once cannot both pass the cap
    await this.deps.sql.transaction(async () => {
      const count = await this.deps.endpoints.countLive(caller.applicationId, caller.environment);
      if (count >= this.deps.maxEndpoints) {
        throw new ApiError('CONFLICT', `this application already has ${count} webhook endpoints in the ${caller.environment} environment, `
          + `the most allowed (${this.deps.maxEndpoints}); delete one, or point one at a receiver that handles several event types`);
      }
      await this.deps.endpoints.insert(endpoint);
    });
    return this.withSecret(endpoint, secret);
  }

  async list(caller: WebhookCaller, page: PageRequest) {
    return toList(await this.deps.endpoints.list(caller.applicationId, caller.environment, page), page, (e) => this.present(e));
  }

  async get(caller: WebhookCaller, id: string) {
    return this.present(await ownEndpoint(this.deps.endpoints, caller, id));
  }

  async update(caller: WebhookCaller, id: string, input: UpdateEndpointInput) {
    const endpoint = await ownEndpoint(this.deps.endpoints, caller, id);
    const changes: EndpointChanges = {};
    if (input.url !== undefined) changes.url = checkWebhookUrl(input.url, caller.environment, this.deps.targets);
    if (input.events !== undefined) changes.events = JSON.stringify(input.events);
    if (input.description !== undefined) changes.description = input.description;
    if (input.enabled !== undefined) changes.enabled = input.enabled ? 1 : 0;
    await this.deps.endpoints.update(endpoint.id, changes, isoNow(this.deps.clock()));
    return this.present((await this.deps.endpoints.findLive(endpoint.id))!);
  }

  /** Soft delete: past deliveries keep their endpoint; pending ones are abandoned (FAILED). */
  async remove(caller: WebhookCaller, id: string) {
    const endpoint = await ownEndpoint(this.deps.endpoints, caller, id);
    const now = isoNow(this.deps.clock());
    await this.deps.sql.transaction(async () => {
      await this.deps.endpoints.update(endpoint.id, { deleted_at: now, enabled: 0 }, now);
      await this.deps.deliveries.abandonForEndpoint(endpoint.id, now);
    });
    return { id: endpoint.id, object: 'webhook_endpoint', deleted: true as const };
  }

  /** Ends a rotation's overlap now: the previous secret no longer signs (nor verifies) anything. */
  async expirePrevious(caller: WebhookCaller, id: string) {
    const endpoint = await ownEndpoint(this.deps.endpoints, caller, id);
    const now = isoNow(this.deps.clock());
    await this.deps.endpoints.update(endpoint.id, { previous_secret_encrypted: null, previous_secret_expires_at: null }, now);
    return this.present((await this.deps.endpoints.findLive(endpoint.id))!);
  }

  /** The current secret becomes the previous one for 24 h (a rotation within the overlap drops the oldest). */
  async rotate(caller: WebhookCaller, id: string) {
    const endpoint = await ownEndpoint(this.deps.endpoints, caller, id);
    const nowMs = this.deps.clock();
    const secret = newWebhookSecret();
    await this.deps.endpoints.update(endpoint.id, {
      secret_encrypted: encryptSecret(this.deps.secretsKey, secret),
      previous_secret_encrypted: endpoint.secret_encrypted,
      previous_secret_expires_at: isoNow(nowMs + ROTATION_OVERLAP_MS),
    }, isoNow(nowMs));
    return this.withSecret((await this.deps.endpoints.findLive(endpoint.id))!, secret);
  }
}
