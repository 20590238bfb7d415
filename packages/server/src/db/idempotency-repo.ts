import type { Db } from './connection.js';

export interface StoredIdempotency {
  request_hash: string;
  state: 'in_progress' | 'completed';
  response_status: number | null;
  response_body: string | null;
  expires_at: string;
}

export class IdempotencyRepo {
  constructor(private readonly db: Db) {}

  /**
   * Claims (scope, key) for a new request, or returns the row that holds it. Runs as one
   * transaction so two requests can never both claim the key.
   */
  claim(scope: string, key: string, requestHash: string, now: string, expiresAt: string): StoredIdempotency | null {
    return this.db.transaction(() => {
      this.db.prepare('DELETE FROM idempotency_keys WHERE scope = ? AND key = ? AND expires_at <= ?').run(scope, key, now);
      const existing = this.db.prepare('SELECT request_hash, state, response_status, response_body, expires_at FROM idempotency_keys WHERE scope = ? AND key = ?')
        .get(scope, key) as StoredIdempotency | undefined;
      if (existing) return existing;
      this.db.prepare("INSERT INTO idempotency_keys (scope, key, request_hash, state, created_at, expires_at) VALUES (?, ?, ?, 'in_progress', ?, ?)")
        .run(scope, key, requestHash, now, expiresAt);
      return null;
    })();
  }

  complete(scope: string, key: string, status: number, body: string | null): void {
    this.db.prepare("UPDATE idempotency_keys SET state = 'completed', response_status = ?, response_body = ? WHERE scope = ? AND key = ?")
      .run(status, body, scope, key);
  }

  /** Frees the key (5xx, aborted request) so a retry can run again. */
  release(scope: string, key: string): void {
    this.db.prepare("DELETE FROM idempotency_keys WHERE scope = ? AND key = ? AND state = 'in_progress'").run(scope, key);
  }

  /** At start-up nothing can still be running: claims left by a crash are dropped. */
  releaseAllInProgress(): void {
    this.db.prepare("DELETE FROM idempotency_keys WHERE state = 'in_progress'").run();
  }

  purgeExpired(now: string): number {
    return this.db.prepare('DELETE FROM idempotency_keys WHERE expires_at <= ?').run(now).changes;
  }
}
