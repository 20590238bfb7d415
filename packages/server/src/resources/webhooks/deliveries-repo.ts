import type { Db } from '../../db/connection.js';
import { KEYSET_WHERE, keysetParams, type PageRequest } from '../../http/pagination.js';

export type DeliveryStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED';

export interface DeliveryRecord {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempt_count: number;
  next_attempt_at: string | null;
  locked_until: string | null;
  claim_token: string | null;
  created_at: string;
  updated_at: string;
}

export interface AttemptRecord {
  delivery_id: string;
  number: number;
  status_code: number | null;
  latency_ms: number | null;
  response_excerpt: string | null;
  error: string | null;
  attempted_at: string;
}

export interface DeliveryFilters {
  status?: DeliveryStatus;
  eventId?: string;
}

/** A claimed delivery: the attempt number it sends and the token that proves the claim. */
export interface Claim {
  delivery: DeliveryRecord;
  number: number;
  token: string;
}

export class WebhookDeliveriesRepo {
  constructor(private readonly db: Db) {}

  insert(delivery: Omit<DeliveryRecord, 'locked_until' | 'claim_token' | 'attempt_count'>): void {
    this.db.prepare(`INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, status, next_attempt_at, created_at, updated_at)
      VALUES (@id, @endpoint_id, @event_id, @event_type, @status, @next_attempt_at, @created_at, @updated_at)`).run(delivery);
  }

  findById(id: string): DeliveryRecord | undefined {
    return this.db.prepare('SELECT * FROM webhook_deliveries WHERE id = ?').get(id) as DeliveryRecord | undefined;
  }

  list(endpointId: string, filters: DeliveryFilters, page: PageRequest): DeliveryRecord[] {
    const where = ['endpoint_id = @endpointId'];
    if (filters.status) where.push('status = @status');
    if (filters.eventId) where.push('event_id = @eventId');
    if (page.after) where.push(KEYSET_WHERE);
    return this.db.prepare(`SELECT * FROM webhook_deliveries WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT @limitPlusOne`)
      .all({ endpointId, status: filters.status ?? null, eventId: filters.eventId ?? null, ...keysetParams(page) }) as DeliveryRecord[];
  }

  attempts(deliveryIds: string[]): AttemptRecord[] {
    if (deliveryIds.length === 0) return [];
    const marks = deliveryIds.map(() => '?').join(', ');
    return this.db.prepare(`SELECT * FROM webhook_attempts WHERE delivery_id IN (${marks}) ORDER BY id`).all(...deliveryIds) as AttemptRecord[];
  }

  insertAttempt(attempt: AttemptRecord): void {
    this.db.prepare(`INSERT INTO webhook_attempts (delivery_id, number, status_code, latency_ms, response_excerpt, error, attempted_at)
      VALUES (@delivery_id, @number, @status_code, @latency_ms, @response_excerpt, @error, @attempted_at)`).run(attempt);
  }

  /**
   * Claims up to `limit` due deliveries of enabled endpoints: due = PENDING, next attempt reached,
   * and no live lease (an expired lease means its worker died mid-attempt, so it goes again).
   */
  /**
   * At most `perEndpoint` attempts of one endpoint are in flight (leased) at once: a receiver that
   * hangs until the timeout must not fill the whole pool and hold up every other endpoint.
   */
  claimDue(now: string, leaseUntil: string, limit: number, newToken: () => string, perEndpoint = Number.MAX_SAFE_INTEGER): Claim[] {
    const claim = this.db.transaction(() => {
      const rows = this.db.prepare(`SELECT * FROM (SELECT d.*, ROW_NUMBER() OVER (PARTITION BY d.endpoint_id ORDER BY d.next_attempt_at, d.id)
          + (SELECT COUNT(*) FROM webhook_deliveries x WHERE x.endpoint_id = d.endpoint_id AND x.status = 'PENDING' AND x.locked_until > @now) AS slot
        FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE d.status = 'PENDING' AND d.next_attempt_at <= @now AND (d.locked_until IS NULL OR d.locked_until <= @now)
          AND e.enabled = 1 AND e.deleted_at IS NULL)
        WHERE slot <= @perEndpoint ORDER BY next_attempt_at, id LIMIT @limit`).all({ now, limit, perEndpoint }) as (DeliveryRecord & { slot?: number })[];
      const due = rows.map(({ slot: _slot, ...delivery }) => delivery as DeliveryRecord);
      const mark = this.db.prepare(`UPDATE webhook_deliveries SET attempt_count = attempt_count + 1, locked_until = ?, claim_token = ?
        WHERE id = ?`);
      return due.map((delivery) => {
        const token = newToken();
        mark.run(leaseUntil, token, delivery.id);
        return { delivery, number: delivery.attempt_count + 1, token };
      });
    });
    // IMMEDIATE: take the write lock before reading, so two processes never claim the same row
    return claim.immediate();
  }

  /** When the loop next has work: the earliest due time of a pending delivery, leases included. */
  nextDueAt(): string | null {
    return this.db.prepare(`SELECT MIN(MAX(d.next_attempt_at, COALESCE(d.locked_until, ''))) FROM webhook_deliveries d
      JOIN webhook_endpoints e ON e.id = d.endpoint_id
      WHERE d.status = 'PENDING' AND e.enabled = 1 AND e.deleted_at IS NULL`).pluck().get() as string | null;
  }

  /** Ends a claim with the delivery's new state; a stale claim changes nothing (returns false). */
  finish(id: string, token: string, status: DeliveryStatus, nextAttemptAt: string | null, now: string): boolean {
    return this.db.prepare(`UPDATE webhook_deliveries SET status = ?, next_attempt_at = ?, locked_until = NULL, claim_token = NULL, updated_at = ?
      WHERE id = ? AND claim_token = ?`).run(status, nextAttemptAt, now, id, token).changes === 1;
  }

  /** Gives a claim back unattempted (shutdown): the attempt number is reused. */
  release(id: string, token: string): void {
    this.db.prepare(`UPDATE webhook_deliveries SET attempt_count = attempt_count - 1, locked_until = NULL, claim_token = NULL
      WHERE id = ? AND claim_token = ?`).run(id, token);
  }

  /** Due now whatever its state; clears any claim so an in-flight attempt cannot undo this. */
  redeliver(id: string, now: string): void {
    this.db.prepare(`UPDATE webhook_deliveries SET status = 'PENDING', next_attempt_at = ?, locked_until = NULL, claim_token = NULL, updated_at = ?
      WHERE id = ?`).run(now, now, id);
  }

  abandonForEndpoint(endpointId: string, now: string): number {
    return this.db.prepare(`UPDATE webhook_deliveries SET status = 'FAILED', next_attempt_at = NULL, locked_until = NULL, claim_token = NULL, updated_at = ?
      WHERE endpoint_id = ? AND status = 'PENDING'`).run(now, endpointId).changes;
  }
}
