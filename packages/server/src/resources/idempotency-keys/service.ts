import type { IdempotencyRepo, StoredIdempotency } from '../../db/idempotency-repo.js';
import { isoNow } from '../../lib/time.js';

/** A key answers with its first reply for 24 h (DESIGN §7). */
const RETENTION_MS = 24 * 3_600_000;

/**
 * Idempotency keys: the middleware's one way to their store (it implements the middleware's
 * `IdempotencyKeys`), and the start-up's and maintenance's for their clean-up. Owns the retention.
 */
export class IdempotencyService {
  constructor(private readonly repo: IdempotencyRepo) {}

  /** Claims (scope, key) for a new request, or returns the reply or running request that holds it. */
  claim(scope: string, key: string, requestHash: string, now = Date.now()): Promise<StoredIdempotency | null> {
    return this.repo.claim(scope, key, requestHash, isoNow(now), isoNow(now + RETENTION_MS));
  }

  complete(scope: string, key: string, status: number, body: string | null): Promise<void> {
    return this.repo.complete(scope, key, status, body);
  }

  /** Frees the key (5xx, aborted request) so a retry can run again. */
  release(scope: string, key: string): Promise<void> {
    return this.repo.release(scope, key);
  }

  /** Frees the keys of requests whose server has stopped. */
  releaseAbandoned(now: string): Promise<number> {
    return this.repo.releaseAbandoned(now);
  }

  purgeExpired(now: string): Promise<number> {
    return this.repo.purgeExpired(now);
  }
}
