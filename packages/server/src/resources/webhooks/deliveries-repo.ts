import type { ExpressionBuilder } from 'kysely';
import { livenessAt, ownerAlive, type ClaimOwner, type Liveness } from '../../db/liveness.js';
import { bindAll, dynamic, prepared, sqlOf, type Params, type Sql, type SqlSource } from '../../db/sql.js';
import { afterPosition, type PageRequest } from '../../domain/page.js';

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
  /** the server (server_instances) whose claim this is */
  claimed_by?: string | null;
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

type NewDelivery = Omit<DeliveryRecord, 'locked_until' | 'claim_token' | 'claimed_by' | 'attempt_count'>;

type ClaimCheck = Liveness & { now: string };

/**
 * A claim that still holds: its lease has not run out, and its server is alive. A killed server's
 * claims are free once its heartbeat is stale, not only when their lease ends. Claims made before
 * migration 023 name no server: they wait for the lease.
 */
// `is not null` first: NOT of a NULL comparison is NULL, which would hide unclaimed rows
const claimHeld = (eb: ExpressionBuilder<any, any>, p: Params<ClaimCheck>, table: string) => eb.and([
  eb(`${table}.locked_until`, 'is not', null),
  eb(`${table}.locked_until`, '>', p('now')),
  eb.or([eb(`${table}.claimed_by`, 'is', null), ownerAlive(eb, `${table}.claimed_by`, p)]),
]);

const INSERT = prepared<unknown, NewDelivery>((k, p) => k.insertInto('webhook_deliveries')
  .values(bindAll(p, ['id', 'endpoint_id', 'event_id', 'event_type', 'status', 'next_attempt_at', 'created_at', 'updated_at'])));

const BY_ID = prepared<DeliveryRecord, { id: string }>((k, p) => k.selectFrom('webhook_deliveries').selectAll().where('id', '=', p('id')));

const ATTEMPTS = prepared<AttemptRecord, { deliveryIds: string[] }>((k, p, d) =>
  k.selectFrom('webhook_attempts').selectAll().where(d.oneOf('delivery_id', p('deliveryIds'))).orderBy('id'));

const INSERT_ATTEMPT = prepared<unknown, AttemptRecord>((k, p) => k.insertInto('webhook_attempts')
  .values(bindAll(p, ['delivery_id', 'number', 'status_code', 'latency_ms', 'response_excerpt', 'error', 'attempted_at'])));

type ClaimableArgs = ClaimCheck & { perEndpoint: number; perApplication: number; limit: number };

/**
 * Due deliveries of enabled endpoints, each with its slot: its place in its endpoint's queue after
 * the attempts of that endpoint already in flight (live leases). Of those within their endpoint's
 * share, each gets its application slot: its place among the application's due deliveries after
 * the application's attempts in flight. The application slot is counted after the endpoint share
 * (the inner WHERE runs before the window), so one endpoint's backlog does not push the
 * application's other endpoints out of their slots.
 */
const CLAIMABLE = prepared<DeliveryRecord & { slot?: number; app_slot?: number; application_id?: string }, ClaimableArgs>((k, p) => {
  const due = k.selectFrom('webhook_deliveries as d').innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .selectAll('d')
    .select('e.application_id')
    .select((eb) => eb(
      eb.fn.agg<number>('row_number').over((ob) => ob.partitionBy('d.endpoint_id').orderBy('d.next_attempt_at').orderBy('d.id')),
      '+',
      eb.selectFrom('webhook_deliveries as x').select((eb) => eb.fn.countAll<number>().as('leased'))
        .whereRef('x.endpoint_id', '=', 'd.endpoint_id').where('x.status', '=', 'PENDING').where((eb) => claimHeld(eb, p, 'x')),
    ).as('slot'))
    .where('d.status', '=', 'PENDING').where('d.next_attempt_at', '<=', p('now'))
    .where((eb) => eb.not(claimHeld(eb, p, 'd')))
    .where('e.enabled', '=', 1).where('e.deleted_at', 'is', null);
  const fair = k.selectFrom(due.as('due'))
    .selectAll('due')
    .select((eb) => eb(
      eb.fn.agg<number>('row_number').over((ob) => ob.partitionBy('due.application_id').orderBy('due.next_attempt_at').orderBy('due.id')),
      '+',
      eb.selectFrom('webhook_deliveries as x').innerJoin('webhook_endpoints as xe', 'xe.id', 'x.endpoint_id')
        .select((eb) => eb.fn.countAll<number>().as('leased'))
        .whereRef('xe.application_id', '=', 'due.application_id').where('x.status', '=', 'PENDING').where((eb) => claimHeld(eb, p, 'x')),
    ).as('app_slot'))
    .where('due.slot', '<=', p('perEndpoint'));
  return k.selectFrom(fair.as('fair')).selectAll()
    .where('app_slot', '<=', p('perApplication')).orderBy('next_attempt_at').orderBy('id').limit(p('limit'));
});

// guarded: still due, unleased, and not attempted since it was read (an attempt that failed
// meanwhile leaves it PENDING and unleased, but due later), so of two processes that read the same
// row only one claims it, and the attempt number read is the one sent
const MARK_CLAIMED = prepared<unknown, ClaimCheck & { id: string; leaseUntil: string; token: string; seen: number }>((k, p) => k.updateTable('webhook_deliveries')
  .set((eb) => ({ attempt_count: eb('attempt_count', '+', 1), locked_until: p('leaseUntil'), claim_token: p('token'), claimed_by: p('owner') }))
  .where('id', '=', p('id')).where('status', '=', 'PENDING').where('attempt_count', '=', p('seen')).where('next_attempt_at', '<=', p('now'))
  .where((eb) => eb.not(claimHeld(eb, p, 'webhook_deliveries'))));

const NEXT_DUE_AT = prepared<{ due: string | null }>((k, _p, d) => k.selectFrom('webhook_deliveries as d')
  .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
  .select((eb) => eb.fn.min(d.greatest(eb.ref('d.next_attempt_at'), eb.fn.coalesce('d.locked_until', eb.val('')))).as('due'))
  .where('d.status', '=', 'PENDING').where('e.enabled', '=', 1).where('e.deleted_at', 'is', null));

const FINISH = prepared<unknown, { id: string; token: string; status: DeliveryStatus; nextAttemptAt: string | null; now: string }>((k, p) =>
  k.updateTable('webhook_deliveries')
    .set({ status: p('status'), next_attempt_at: p('nextAttemptAt'), locked_until: null, claim_token: null, updated_at: p('now') })
    .where('id', '=', p('id')).where('claim_token', '=', p('token')));

const RELEASE = prepared<unknown, { id: string; token: string }>((k, p) => k.updateTable('webhook_deliveries')
  .set((eb) => ({ attempt_count: eb('attempt_count', '-', 1), locked_until: null, claim_token: null }))
  .where('id', '=', p('id')).where('claim_token', '=', p('token')));

const REDELIVER = prepared<unknown, { id: string; now: string }>((k, p) => k.updateTable('webhook_deliveries')
  .set({ status: 'PENDING', next_attempt_at: p('now'), locked_until: null, claim_token: null, updated_at: p('now') })
  .where('id', '=', p('id')));

// rows locked in id order on PostgreSQL, as claims lock them: the two cannot deadlock
const ABANDON_FOR_ENDPOINT = prepared<unknown, { endpointId: string; now: string }>((k, p, d) => k.updateTable('webhook_deliveries')
  .set({ status: 'FAILED', next_attempt_at: null, locked_until: null, claim_token: null, updated_at: p('now') })
  .where('id', 'in', k.selectFrom('webhook_deliveries').select('id')
    .where('endpoint_id', '=', p('endpointId')).where('status', '=', 'PENDING').orderBy('id')
    .$if(d.dialect === 'postgres', (q) => q.forUpdate()))
  .where('status', '=', 'PENDING'));

export class WebhookDeliveriesRepo {
  private readonly sql: Sql;

  constructor(db: SqlSource, private readonly owner: ClaimOwner) {
    this.sql = sqlOf(db);
  }

  private claimCheck(now: string): ClaimCheck {
    return { now, ...livenessAt(this.owner, now) };
  }

  async insert(delivery: NewDelivery): Promise<void> {
    await this.sql.run(INSERT, delivery);
  }

  async findById(id: string): Promise<DeliveryRecord | undefined> {
    return this.sql.get(BY_ID, { id });
  }

  async list(endpointId: string, filters: DeliveryFilters, page: PageRequest): Promise<DeliveryRecord[]> {
    return this.sql.all(dynamic<DeliveryRecord>((k) => k.selectFrom('webhook_deliveries').selectAll()
      .where('endpoint_id', '=', endpointId)
      .$if(!!filters.status, (q) => q.where('status', '=', filters.status!))
      .$if(!!filters.eventId, (q) => q.where('event_id', '=', filters.eventId!))
      .$if(page.after !== null, (q) => q.where(afterPosition(page.after!)))
      .orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit + 1)));
  }

  async attempts(deliveryIds: string[]): Promise<AttemptRecord[]> {
    if (deliveryIds.length === 0) return [];
    return this.sql.all(ATTEMPTS, { deliveryIds });
  }

  async insertAttempt(attempt: AttemptRecord): Promise<void> {
    await this.sql.run(INSERT_ATTEMPT, attempt);
  }

  /**
   * Claims up to `limit` due deliveries of enabled endpoints: due = PENDING, next attempt reached,
   * and no live lease (an expired lease means its worker died mid-attempt, so it goes again).
   */
  /**
   * At most `perEndpoint` attempts of one endpoint, and `perApplication` of one application's
   * endpoints, are in flight (leased) at once: receivers that hang until the timeout must not fill
   * the whole pool and hold up every other endpoint and tenant.
   */
  async claimDue(
    now: string, leaseUntil: string, limit: number, newToken: () => string,
    { perEndpoint = Number.MAX_SAFE_INTEGER, perApplication = Number.MAX_SAFE_INTEGER } = {},
  ): Promise<Claim[]> {
    // Each claim is a guarded UPDATE: two processes that read the same due row both try, and the
    // second finds it leased (PostgreSQL re-checks the WHERE once the first commits). The
    // per-endpoint and per-application limits are each process's own read, so across processes it may be exceeded briefly.
    return this.sql.transaction(async () => {
      const check = this.claimCheck(now);
      const rows = await this.sql.all(CLAIMABLE, { ...check, limit, perEndpoint, perApplication });
      const due = rows.map(({ slot: _slot, app_slot: _appSlot, application_id: _application, ...delivery }) => delivery as DeliveryRecord);
      const claims = due.map((delivery): Claim => ({ delivery, number: delivery.attempt_count + 1, token: newToken() }));
      const won = new Set<Claim>();
      // locked in id order: every transaction that locks several deliveries locks them in that order
      for (const claim of [...claims].sort((a, b) => (a.delivery.id < b.delivery.id ? -1 : 1))) {
        const args = { ...check, id: claim.delivery.id, leaseUntil, token: claim.token, seen: claim.delivery.attempt_count };
        if (await this.sql.run(MARK_CLAIMED, args) === 1) won.add(claim);
      }
      // handed out in due order
      return claims.filter((claim) => won.has(claim));
    }, { selfLocking: true });
  }

  /** When the loop next has work: the earliest due time of a pending delivery, leases included. */
  async nextDueAt(): Promise<string | null> {
    return (await this.sql.get(NEXT_DUE_AT))?.due ?? null;
  }

  /** Ends a claim with the delivery's new state; a stale claim changes nothing (returns false). */
  async finish(id: string, token: string, status: DeliveryStatus, nextAttemptAt: string | null, now: string): Promise<boolean> {
    return await this.sql.run(FINISH, { id, token, status, nextAttemptAt, now }) === 1;
  }

  /** Gives a claim back unattempted (shutdown): the attempt number is reused. */
  async release(id: string, token: string): Promise<void> {
    await this.sql.run(RELEASE, { id, token });
  }

  /** Due now whatever its state; clears any claim so an in-flight attempt cannot undo this. */
  async redeliver(id: string, now: string): Promise<void> {
    await this.sql.run(REDELIVER, { id, now });
  }

  async abandonForEndpoint(endpointId: string, now: string): Promise<number> {
    return this.sql.run(ABANDON_FOR_ENDPOINT, { endpointId, now });
  }
}
