import { bindAll, dynamic, prepared, sqlOf, type Sql, type SqlSource } from '../../db/sql.js';
import type { ApplicationRecord } from '../../domain/application.js';
import type { Environment } from '../../domain/environment.js';
import { findApplicationRow } from '../applications/repo.js';
import { freshnessOf, type CacheFreshness } from '../applications/freshness.js';
import { afterPosition, type PageRequest } from '../../domain/page.js';

export type KeyType = 'secret' | 'publishable';

export interface ApiKeyRecord {
  id: string;
  application_id: string;
  environment: Environment;
  type: KeyType;
  key_hash: string;
  prefix: string;
  last4: string;
  created_at: string;
  last_used_at: string | null;
  exposed_at: string | null;
  revoked_at: string | null;
}

const INSERT = prepared<never, ApiKeyRecord>((k, p) => k.insertInto('api_keys').values(bindAll(p, [
  'id', 'application_id', 'environment', 'type', 'key_hash', 'prefix', 'last4', 'created_at', 'last_used_at', 'exposed_at', 'revoked_at',
])));

const BY_HASH = prepared<ApiKeyRecord, { hash: string }>((k, p) => k.selectFrom('api_keys').selectAll().where('key_hash', '=', p('hash')));

const BY_ID = prepared<ApiKeyRecord, { id: string }>((k, p) => k.selectFrom('api_keys').selectAll().where('id', '=', p('id')));

// the first time only: a repeat changes nothing, so it does not make every server drop its caches
const REVOKE = prepared<never, { id: string; at: string }>((k, p) =>
  k.updateTable('api_keys').set({ revoked_at: p('at') }).where('id', '=', p('id')).where('revoked_at', 'is', null));

const MARK_EXPOSED = prepared<never, { id: string; at: string }>((k, p) =>
  k.updateTable('api_keys').set({ exposed_at: p('at') }).where('id', '=', p('id')).where('exposed_at', 'is', null));

const TOUCH = prepared<never, { id: string; at: string }>((k, p) => k.updateTable('api_keys').set({ last_used_at: p('at') }).where('id', '=', p('id')));

export class KeysRepo {
  private readonly sql: Sql;
  /** Whether the cached key rows are still what the database holds (shared with the applications cache). */
  readonly freshness: CacheFreshness;

  constructor(db: SqlSource) {
    this.sql = sqlOf(db);
    this.freshness = freshnessOf(this.sql);
  }

  async insert(key: ApiKeyRecord): Promise<void> {
    await this.sql.run(INSERT, key);
  }

  async findByHash(hash: string): Promise<{ key: ApiKeyRecord; application: ApplicationRecord } | undefined> {
    const key = await this.sql.get(BY_HASH, { hash });
    if (!key) return undefined;
    return { key, application: (await this.findApplication(key.application_id))! };
  }

  async findApplication(id: string): Promise<ApplicationRecord | undefined> {
    return findApplicationRow(this.sql, id);
  }

  async findById(id: string): Promise<ApiKeyRecord | undefined> {
    return this.sql.get(BY_ID, { id });
  }

  async list(applicationId: string, page: PageRequest): Promise<ApiKeyRecord[]> {
    return this.sql.all(dynamic<ApiKeyRecord>((k) => k.selectFrom('api_keys').selectAll().where('application_id', '=', applicationId)
      .$if(page.after !== null, (q) => q.where(afterPosition(page.after!)))
      .orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit + 1)));
  }

  /** With the cache generation in the same transaction: every server refuses the key within a second. */
  async revoke(id: string, at: string): Promise<void> {
    await this.sql.transaction(async () => {
      if (await this.sql.run(REVOKE, { id, at }) > 0) await this.freshness.bump();
    });
  }

  async markExposed(id: string, at: string): Promise<void> {
    await this.sql.transaction(async () => {
      if (await this.sql.run(MARK_EXPOSED, { id, at }) > 0) await this.freshness.bump();
    });
  }

  async touch(id: string, at: string): Promise<void> {
    await this.sql.run(TOUCH, { id, at });
  }
}
