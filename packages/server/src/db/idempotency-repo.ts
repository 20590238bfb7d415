import type { Db } from './connection.js';
import { prepared, sqlOf, type Sql, type SqlSource } from './sql.js';

export interface StoredIdempotency {
  request_hash: string;
  state: 'in_progress' | 'completed';
  response_status: number | null;
  response_body: string | null;
  expires_at: string;
}

type Key = { scope: string; key: string };

const DROP_EXPIRED_KEY = prepared<never, Key & { now: string }>((k, p) => k.deleteFrom('idempotency_keys')
  .where('scope', '=', p('scope')).where('key', '=', p('key')).where('expires_at', '<=', p('now')));

const BY_KEY = prepared<StoredIdempotency, Key>((k, p) => k.selectFrom('idempotency_keys')
  .select(['request_hash', 'state', 'response_status', 'response_body', 'expires_at']).where('scope', '=', p('scope')).where('key', '=', p('key')));

const INSERT_CLAIM = prepared<never, Key & { requestHash: string; now: string; expiresAt: string }>((k, p) => k.insertInto('idempotency_keys')
  .values({ scope: p('scope'), key: p('key'), request_hash: p('requestHash'), state: 'in_progress', created_at: p('now'), expires_at: p('expiresAt') }));

const COMPLETE = prepared<never, Key & { status: number; body: string | null }>((k, p) => k.updateTable('idempotency_keys')
  .set({ state: 'completed', response_status: p('status'), response_body: p('body') }).where('scope', '=', p('scope')).where('key', '=', p('key')));

const RELEASE = prepared<never, Key>((k, p) => k.deleteFrom('idempotency_keys')
  .where('scope', '=', p('scope')).where('key', '=', p('key')).where('state', '=', 'in_progress'));

const RELEASE_ALL_IN_PROGRESS = prepared<never>((k) => k.deleteFrom('idempotency_keys').where('state', '=', 'in_progress'));

const PURGE_EXPIRED = prepared<never, { now: string }>((k, p) => k.deleteFrom('idempotency_keys').where('expires_at', '<=', p('now')));

export class IdempotencyRepo {
  private readonly sql: Sql;

  constructor(db: SqlSource) {
    this.sql = sqlOf(db);
  }

  /**
   * Claims (scope, key) for a new request, or returns the row that holds it. Runs as one
   * transaction so two requests can never both claim the key.
   */
  async claim(scope: string, key: string, requestHash: string, now: string, expiresAt: string): Promise<StoredIdempotency | null> {
    return this.sql.transaction(async () => {
      await this.sql.run(DROP_EXPIRED_KEY, { scope, key, now });
      const existing = await this.sql.get(BY_KEY, { scope, key });
      if (existing) return existing;
      await this.sql.run(INSERT_CLAIM, { scope, key, requestHash, now, expiresAt });
      return null;
    });
  }

  async complete(scope: string, key: string, status: number, body: string | null): Promise<void> {
    await this.sql.run(COMPLETE, { scope, key, status, body });
  }

  /** Frees the key (5xx, aborted request) so a retry can run again. */
  async release(scope: string, key: string): Promise<void> {
    await this.sql.run(RELEASE, { scope, key });
  }

  /** At start-up nothing can still be running: claims left by a crash are dropped. */
  async releaseAllInProgress(): Promise<void> {
    await this.sql.run(RELEASE_ALL_IN_PROGRESS);
  }

  async purgeExpired(now: string): Promise<number> {
    return this.sql.run(PURGE_EXPIRED, { now });
  }
}
