import { sql as kysql } from 'kysely';
import type { EventRow } from '../../db/outbox.js';
import { dynamic, prepared, sqlOf, type Sql, type SqlSource } from '../../db/sql.js';
import type { Environment } from '../../domain/environment.js';
import type { PageRequest } from '../../domain/page.js';

export interface EventRecord extends EventRow {
  fanned_out_at: string | null;
  /** its place in the list, given once committed (migration 024); null until then */
  seq: number | null;
}

/** The advisory key that makes sequence batches take turns on PostgreSQL ('fune'). */
const SEQUENCE_LOCK_KEY = 0x66756e65;

// SQLite has one writer (BEGIN IMMEDIATE): its batches take turns without a lock
const SEQUENCE_LOCK = prepared<unknown>((k, _p, d) => ({
  compile: () => (d.dialect === 'postgres' ? kysql`SELECT pg_advisory_xact_lock(${kysql.lit(SEQUENCE_LOCK_KEY)})` : kysql`SELECT 1`).compile(k),
}));

const ANY_UNSEQUENCED = prepared<{ id: string }>((k) => k.selectFrom('events').select('id').where('seq', 'is', null).limit(1));

/** a batch is one statement; a backlog (a server that nobody listed events of) takes several */
const SEQUENCE_BATCH = 5_000;

/** Committed events without a place (oldest first) get the next places, above every place given before. */
const SEQUENCE_COMMITTED = prepared<unknown>((k) => k.updateTable('events')
  .from(k.selectFrom('events').where('seq', 'is', null)
    .select(['id', kysql<number>`(SELECT coalesce(max(seq), 0) FROM events) + row_number() OVER (ORDER BY created_at, id)`.as('n')])
    .orderBy('created_at').orderBy('id').limit(SEQUENCE_BATCH)
    .as('next'))
  .set((eb) => ({ seq: eb.ref('next.n') }))
  .whereRef('events.id', '=', 'next.id'));

const BY_ID = prepared<EventRecord, { id: string }>((k, p) => k.selectFrom('events').selectAll().where('id', '=', p('id')));

const PENDING_FAN_OUT = prepared<EventRecord, { limit: number }>((k, p) =>
  k.selectFrom('events').selectAll().where('fanned_out_at', 'is', null).orderBy('created_at').orderBy('id').limit(p('limit')));

const MARK_FANNED_OUT = prepared<unknown, { id: string; now: string }>((k, p) =>
  k.updateTable('events').set({ fanned_out_at: p('now') }).where('id', '=', p('id')).where('fanned_out_at', 'is', null));

export class EventsRepo {
  private readonly sql: Sql;

  constructor(db: SqlSource) {
    this.sql = sqlOf(db);
  }

  async findById(id: string): Promise<EventRecord | undefined> {
    return this.sql.get(BY_ID, { id });
  }

  /**
   * Gives every committed event without a place its place (`seq`). Batches take turns, and each
   * reads the places given before it once the previous batch committed, so an event committed
   * after a list was read gets a place above everything that list showed.
   */
  async sequenceCommitted(): Promise<void> {
    if (!await this.sql.get(ANY_UNSEQUENCED)) return;
    let placed: number;
    do {
      placed = await this.sql.transaction(async () => {
        await this.sql.run(SEQUENCE_LOCK);
        return this.sql.run(SEQUENCE_COMMITTED);
      }, { selfLocking: true });
    } while (placed === SEQUENCE_BATCH);
  }

  /**
   * A page of an application's events, last placed first; the cursor's event is found by id and
   * the page continues below its place.
   */
  async list(applicationId: string, environment: Environment, type: string | undefined, page: PageRequest): Promise<EventRecord[]> {
    return this.sql.all(dynamic<EventRecord>((k) => k.selectFrom('events').selectAll()
      .where('application_id', '=', applicationId).where('environment', '=', environment).where('seq', 'is not', null)
      .$if(!!type, (q) => q.where('type', '=', type!))
      .$if(page.after !== null, (q) => q.where('seq', '<', k.selectFrom('events').select('seq').where('id', '=', page.after!.id)))
      .orderBy('seq', 'desc').limit(page.limit + 1)));
  }

  /** Events whose deliveries do not exist yet, oldest first. */
  async pendingFanOut(limit: number): Promise<EventRecord[]> {
    return this.sql.all(PENDING_FAN_OUT, { limit });
  }

  async markFannedOut(id: string, now: string): Promise<boolean> {
    return await this.sql.run(MARK_FANNED_OUT, { id, now }) === 1;
  }
}
