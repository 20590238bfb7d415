import type { EventRow } from '../../db/outbox.js';
import { dynamic, prepared, sqlOf, type Sql, type SqlSource } from '../../db/sql.js';
import type { Environment } from '../../http/context.js';
import { applicationPage, type PageRequest } from '../../http/pagination.js';

export interface EventRecord extends EventRow {
  fanned_out_at: string | null;
}

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

  async list(applicationId: string, environment: Environment, type: string | undefined, page: PageRequest): Promise<EventRecord[]> {
    return this.sql.all(dynamic<EventRecord>((k) => applicationPage(k, 'events', applicationId, environment, page)
      .$if(!!type, (q) => q.where('type', '=', type!))));
  }

  /** Events whose deliveries do not exist yet, oldest first. */
  async pendingFanOut(limit: number): Promise<EventRecord[]> {
    return this.sql.all(PENDING_FAN_OUT, { limit });
  }

  async markFannedOut(id: string, now: string): Promise<boolean> {
    return await this.sql.run(MARK_FANNED_OUT, { id, now }) === 1;
  }
}
