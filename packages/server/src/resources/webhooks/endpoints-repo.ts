import { sql, type SqlBool } from 'kysely';
import { bindAll, dynamic, prepared, sqlOf, type Sql, type SqlSource } from '../../db/sql.js';
import type { Environment } from '../../domain/environment.js';
import { afterPosition, type PageRequest } from '../../domain/page.js';

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

const INSERT = prepared<unknown, EndpointRecord>((k, p) => k.insertInto('webhook_endpoints').values(bindAll(p, [
  'id', 'application_id', 'environment', 'url', 'events', 'description', 'enabled', 'secret_encrypted',
  'previous_secret_encrypted', 'previous_secret_expires_at', 'created_at', 'updated_at', 'deleted_at',
])));

const LIVE_BY_ID = prepared<EndpointRecord, { id: string }>((k, p) =>
  k.selectFrom('webhook_endpoints').selectAll().where('id', '=', p('id')).where('deleted_at', 'is', null));

const ANY_BY_ID = prepared<EndpointRecord, { id: string }>((k, p) => k.selectFrom('webhook_endpoints').selectAll().where('id', '=', p('id')));

const LIVE_COUNT = prepared<{ n: number }, { applicationId: string; environment: Environment }>((k, p) =>
  k.selectFrom('webhook_endpoints').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('application_id', '=', p('applicationId')).where('environment', '=', p('environment')).where('deleted_at', 'is', null));

/**
 * `events` (a JSON array in a text column) lists `type`. sql.ts has no helper for "a JSON list
 * column holds a value" (d.oneOf is the other way round), so each engine spells it here.
 */
const SUBSCRIBERS = prepared<EndpointRecord, { applicationId: string; environment: Environment; type: string }>((k, p, d) =>
  k.selectFrom('webhook_endpoints').selectAll()
    .where('application_id', '=', p('applicationId')).where('environment', '=', p('environment'))
    .where('enabled', '=', 1).where('deleted_at', 'is', null)
    .where(d.dialect === 'sqlite'
      ? sql<SqlBool>`EXISTS (SELECT 1 FROM json_each(${sql.ref('webhook_endpoints.events')}) WHERE json_each.value = ${p('type')})`
      : sql<SqlBool>`EXISTS (SELECT 1 FROM jsonb_array_elements_text(CAST(${sql.ref('webhook_endpoints.events')} AS jsonb)) AS listed(value)
          WHERE listed.value = ${p('type')})`)
    .orderBy('created_at').orderBy('id')
    // FOR SHARE on PostgreSQL: an endpoint's removal waits for a fan-out that read it live (and
    // then abandons the delivery it made), or the fan-out waits and no longer finds it
    .$if(d.dialect === 'postgres', (q) => q.forShare()));

export class WebhookEndpointsRepo {
  private readonly sql: Sql;

  constructor(db: SqlSource) {
    this.sql = sqlOf(db);
  }

  async insert(endpoint: EndpointRecord): Promise<void> {
    await this.sql.run(INSERT, endpoint);
  }

  /** Deleted endpoints are invisible to the API. */
  async findLive(id: string): Promise<EndpointRecord | undefined> {
    return this.sql.get(LIVE_BY_ID, { id });
  }

  /** Any endpoint, deleted or not: the worker must see a deletion to abandon its deliveries. */
  async findAny(id: string): Promise<EndpointRecord | undefined> {
    return this.sql.get(ANY_BY_ID, { id });
  }

  async list(applicationId: string, environment: Environment, page: PageRequest): Promise<EndpointRecord[]> {
    return this.sql.all(dynamic<EndpointRecord>((k) => k.selectFrom('webhook_endpoints').selectAll()
      .where('application_id', '=', applicationId).where('environment', '=', environment).where('deleted_at', 'is', null)
      .$if(page.after !== null, (q) => q.where(afterPosition(page.after!)))
      .orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit + 1)));
  }

  /** Endpoints not deleted of one application and environment. */
  async countLive(applicationId: string, environment: Environment): Promise<number> {
    return Number((await this.sql.get(LIVE_COUNT, { applicationId, environment }))?.n ?? 0);
  }

  /** The endpoints an event of this type fans out to. */
  async subscribers(applicationId: string, environment: Environment, type: string): Promise<EndpointRecord[]> {
    return this.sql.all(SUBSCRIBERS, { applicationId, environment, type });
  }

  async update(id: string, changes: EndpointChanges, updatedAt: string): Promise<void> {
    if (Object.keys(changes).length === 0) return;
    await this.sql.run(dynamic((k) => k.updateTable('webhook_endpoints').set({ ...changes, updated_at: updatedAt }).where('id', '=', id)));
  }
}
