import { bindAll, dynamic, prepared, sqlOf, type Sql, type SqlSource } from '../../db/sql.js';
import type { ApplicationRecord } from '../../http/context.js';
import { afterPosition, type PageRequest } from '../../http/pagination.js';

/**
 * Application rows by id, one map per database: every authenticated request needs its
 * application (status, settlement address), and only this repo writes the table, so `insert` and
 * `update` keep the map exact (a deactivation still applies to the next request).
 */
interface RowCache {
  rows: Map<string, ApplicationRecord>;
  /**
   * Bumped by every write: a read started before a write must not put back the row it read once
   * the write has dropped it (reads are asynchronous; a write can land between read and fill).
   */
  generation: number;
}
const rowsBySql = new WeakMap<Sql, RowCache>();
const MAX_CACHED_APPLICATIONS = 10_000;

function rowCache(sql: Sql): RowCache {
  let cache = rowsBySql.get(sql);
  if (!cache) rowsBySql.set(sql, cache = { rows: new Map(), generation: 0 });
  return cache;
}

const BY_ID = prepared<ApplicationRecord, { id: string }>((k, p) => k.selectFrom('applications').selectAll().where('id', '=', p('id')));

const INSERT = prepared<never, ApplicationRecord>((k, p) => k.insertInto('applications').values(bindAll(p, [
  'id', 'account_id', 'name', 'settlement_address', 'status', 'logo_url', 'logo_file', 'logo_content_type', 'created_at', 'updated_at',
])));

const UNOWNED_BY_NAME = prepared<ApplicationRecord, { name: string }>((k, p) => k.selectFrom('applications').selectAll()
  .where('account_id', 'is', null).where('name', '=', p('name')).orderBy('created_at').limit(1));

/** The application row by id, cached (see rowsByDb); shared by every repo that needs it. */
export async function findApplicationRow(source: SqlSource, id: string): Promise<ApplicationRecord | undefined> {
  const sql = sqlOf(source);
  const cache = rowCache(sql);
  let app = cache.rows.get(id);
  if (!app) {
    const generation = cache.generation;
    app = await sql.get(BY_ID, { id });
    if (!app) return undefined;
    if (cache.generation === generation) {
      if (cache.rows.size >= MAX_CACHED_APPLICATIONS) cache.rows.clear();
      cache.rows.set(id, app);
    }
  }
  // a copy: callers may hold or change their record without touching the cached row
  return { ...app };
}

export class ApplicationsRepo {
  private readonly sql: Sql;

  constructor(db: SqlSource) {
    this.sql = sqlOf(db);
  }

  async insert(app: ApplicationRecord): Promise<void> {
    await this.sql.run(INSERT, app);
  }

  async findById(id: string): Promise<ApplicationRecord | undefined> {
    return findApplicationRow(this.sql, id);
  }

  /** Bootstrap identifies unowned applications by name. */
  async findUnownedByName(name: string): Promise<ApplicationRecord | undefined> {
    return this.sql.get(UNOWNED_BY_NAME, { name });
  }

  /** accountId null = every application (operator view). */
  async list(filter: { accountId?: string; status?: string }, page: PageRequest): Promise<ApplicationRecord[]> {
    return this.sql.all(dynamic<ApplicationRecord>((k) => k.selectFrom('applications').selectAll()
      .$if(Boolean(filter.accountId), (q) => q.where('account_id', '=', filter.accountId!))
      .$if(Boolean(filter.status), (q) => q.where('status', '=', filter.status!))
      .$if(page.after !== null, (q) => q.where(afterPosition(page.after!)))
      .orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit + 1)));
  }

  async update(id: string, fields: Partial<Pick<ApplicationRecord, 'account_id' | 'name' | 'settlement_address' | 'status' | 'logo_url' | 'logo_file' | 'logo_content_type'>>, updatedAt: string): Promise<void> {
    const set = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
    if (Object.keys(set).length === 0) return;
    await this.sql.run(dynamic((k) => k.updateTable('applications').set({ ...set, updated_at: updatedAt }).where('id', '=', id)));
    const cache = rowCache(this.sql);
    const drop = () => {
      cache.generation++;
      cache.rows.delete(id);
    };
    drop();
    // again after the commit: a read from outside the transaction may have cached the old row meanwhile
    this.sql.afterCommit(drop);
  }
}
