import type { Db } from '../../db/connection.js';
import type { Environment } from '../../http/context.js';
import { KEYSET_WHERE, keysetParams, type PageRequest } from '../../http/pagination.js';

export interface EndpointRecord {
  id: string;
  application_id: string;
  environment: Environment;
  url: string;
  /** JSON array of event types */
  events: string;
  description: string | null;
  enabled: number;
  secret_encrypted: string;
  previous_secret_encrypted: string | null;
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export type EndpointChanges = Partial<Pick<EndpointRecord, 'url' | 'events' | 'description' | 'enabled' | 'secret_encrypted' | 'previous_secret_encrypted' | 'previous_secret_expires_at' | 'deleted_at'>>;

const LIVE = 'deleted_at IS NULL';

export class WebhookEndpointsRepo {
  constructor(private readonly db: Db) {}

  insert(endpoint: EndpointRecord): void {
    this.db.prepare(`INSERT INTO webhook_endpoints (id, application_id, environment, url, events, description, enabled, secret_encrypted,
        previous_secret_encrypted, previous_secret_expires_at, created_at, updated_at, deleted_at)
      VALUES (@id, @application_id, @environment, @url, @events, @description, @enabled, @secret_encrypted,
        @previous_secret_encrypted, @previous_secret_expires_at, @created_at, @updated_at, @deleted_at)`).run(endpoint);
  }

  /** Deleted endpoints are invisible to the API. */
  findLive(id: string): EndpointRecord | undefined {
    return this.db.prepare(`SELECT * FROM webhook_endpoints WHERE id = ? AND ${LIVE}`).get(id) as EndpointRecord | undefined;
  }

  /** Any endpoint, deleted or not: the worker must see a deletion to abandon its deliveries. */
  findAny(id: string): EndpointRecord | undefined {
    return this.db.prepare('SELECT * FROM webhook_endpoints WHERE id = ?').get(id) as EndpointRecord | undefined;
  }

  list(applicationId: string, environment: Environment, page: PageRequest): EndpointRecord[] {
    const where = ['application_id = @applicationId', 'environment = @environment', LIVE];
    if (page.after) where.push(KEYSET_WHERE);
    return this.db.prepare(`SELECT * FROM webhook_endpoints WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT @limitPlusOne`)
      .all({ applicationId, environment, ...keysetParams(page) }) as EndpointRecord[];
  }

  /** The endpoints an event of this type fans out to. */
  subscribers(applicationId: string, environment: Environment, type: string): EndpointRecord[] {
    return this.db.prepare(`SELECT * FROM webhook_endpoints
      WHERE application_id = ? AND environment = ? AND enabled = 1 AND ${LIVE}
        AND EXISTS (SELECT 1 FROM json_each(webhook_endpoints.events) WHERE json_each.value = ?)
      ORDER BY created_at, id`).all(applicationId, environment, type) as EndpointRecord[];
  }

  update(id: string, changes: EndpointChanges, updatedAt: string): void {
    const columns = Object.keys(changes);
    if (columns.length === 0) return;
    const set = [...columns.map((c) => `${c} = @${c}`), 'updated_at = @updated_at'].join(', ');
    this.db.prepare(`UPDATE webhook_endpoints SET ${set} WHERE id = @id`).run({ ...changes, id, updated_at: updatedAt });
  }
}
