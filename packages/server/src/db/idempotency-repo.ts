import type { DeleteQueryBuilder } from 'kysely';
import { livenessAt, ownerAlive, type ClaimOwner, type Liveness } from './liveness.js';
import { decryptSecret, encryptSecret } from '../lib/crypto.js';
import { prepared, sqlOf, type Params, type Sql, type SqlSource } from './sql.js';

/**
 * A stored reply is sealed (AES-256-GCM under a key derived from the master key): replies carry
 * secrets shown once (a webhook's `whsec_`, an API key, a checkout session or handoff token), and
 * none may sit in clear text in the database, its WAL or a backup. Rows from before sealing (no
 * prefix) are read as they are until they expire (24 h).
 */
const SEALED = 'sealed:v1:';

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

const INSERT_CLAIM = prepared<never, Key & { requestHash: string; now: string; expiresAt: string; owner: string }>((k, p) => k.insertInto('idempotency_keys')
  .values({ scope: p('scope'), key: p('key'), request_hash: p('requestHash'), state: 'in_progress', created_at: p('now'), expires_at: p('expiresAt'), owner: p('owner') })
  .onConflict((oc) => oc.columns(['scope', 'key']).doNothing()));

/** Only the claim's owner completes or releases it: a claim taken over is no longer its to answer. */
const COMPLETE = prepared<never, Key & { status: number; body: string | null; owner: string }>((k, p) => k.updateTable('idempotency_keys')
  .set({ state: 'completed', response_status: p('status'), response_body: p('body') })
  .where('scope', '=', p('scope')).where('key', '=', p('key')).where('owner', '=', p('owner')));

const RELEASE = prepared<never, Key & { owner: string }>((k, p) => k.deleteFrom('idempotency_keys')
  .where('scope', '=', p('scope')).where('key', '=', p('key')).where('state', '=', 'in_progress').where('owner', '=', p('owner')));

/**
 * Running requests whose server is gone (claims from before migration 021 have no owner, and no
 * server of theirs runs any more).
 */
const abandoned = (q: DeleteQueryBuilder<any, any, any>, p: Params<Liveness>) => q
  .where('state', '=', 'in_progress')
  .where((eb) => eb.or([eb('owner', 'is', null), eb.not(ownerAlive(eb, 'idempotency_keys.owner', p))]));

const DROP_ABANDONED_KEY = prepared<never, Key & Liveness>((k, p) =>
  abandoned(k.deleteFrom('idempotency_keys').where('scope', '=', p('scope')).where('key', '=', p('key')), p));

const RELEASE_ABANDONED = prepared<never, Liveness>((k, p) => abandoned(k.deleteFrom('idempotency_keys'), p));

const PURGE_EXPIRED = prepared<never, { now: string }>((k, p) => k.deleteFrom('idempotency_keys').where('expires_at', '<=', p('now')));

export class IdempotencyRepo {
  private readonly sql: Sql;

  constructor(db: SqlSource, private readonly owner: ClaimOwner, private readonly sealKey: Buffer) {
    this.sql = sqlOf(db);
  }

  private seal(body: string | null): string | null {
    return body === null ? null : SEALED + encryptSecret(this.sealKey, body);
  }

  private unseal(row: StoredIdempotency): StoredIdempotency {
    const body = row.response_body;
    if (body === null || !body.startsWith(SEALED)) return row;
    return { ...row, response_body: decryptSecret(this.sealKey, body.slice(SEALED.length)) };
  }

  /**
   * Claims (scope, key) for a new request, or returns the row that holds it. Runs as one
   * transaction so two requests can never both claim the key. A running request whose server
   * has stopped (SIGKILL, crash) holds the key no longer: the claim is taken over. The unique key
   * decides between concurrent claims, so no writer lock is needed.
   */
  async claim(scope: string, key: string, requestHash: string, now: string, expiresAt: string): Promise<StoredIdempotency | null> {
    return this.sql.transaction(async () => {
      await this.sql.run(DROP_EXPIRED_KEY, { scope, key, now });
      await this.sql.run(DROP_ABANDONED_KEY, { scope, key, ...livenessAt(this.owner, now) });
      // ON CONFLICT DO NOTHING, then read: on PostgreSQL a concurrent claim of the same key makes
      // the insert wait for that transaction, and the read after it sees the winner's row. The
      // row can also vanish in between (released, expired): then the key is free to claim again.
      for (;;) {
        const inserted = await this.sql.run(INSERT_CLAIM, { scope, key, requestHash, now, expiresAt, owner: this.owner.id });
        if (inserted === 1) return null;
        const existing = await this.sql.get(BY_KEY, { scope, key });
        if (existing) return this.unseal(existing);
      }
    }, { selfLocking: true });
  }

  async complete(scope: string, key: string, status: number, body: string | null): Promise<void> {
    await this.sql.run(COMPLETE, { scope, key, status, body: this.seal(body), owner: this.owner.id });
  }

  /** Frees the key (5xx, aborted request) so a retry can run again. */
  async release(scope: string, key: string): Promise<void> {
    await this.sql.run(RELEASE, { scope, key, owner: this.owner.id });
  }

  /**
   * Frees the keys of requests whose server has stopped. Not those of the other servers still
   * running on this database: their requests are still under way.
   */
  async releaseAbandoned(now: string): Promise<number> {
    return this.sql.run(RELEASE_ABANDONED, livenessAt(this.owner, now));
  }

  async purgeExpired(now: string): Promise<number> {
    return this.sql.run(PURGE_EXPIRED, { now });
  }
}
