import { bindAll, dynamic, prepared, sqlOf, type Sql, type SqlSource } from '../../db/sql.js';
import type { ApplicationRecord } from '../../domain/application.js';
import { afterPosition, type PageRequest } from '../../domain/page.js';
import { freshnessOf } from './freshness.js';

/**
 * Application rows by id, one map per database connection: every authenticated request needs its
 * application (status, settlement address). Every update bumps the database's cache generation
 * (freshness.ts), so this server drops the map at once and every other server within a second.
 */
const rowsBySql = new WeakMap<Sql, Map<string, ApplicationRecord>>();
const MAX_CACHED_APPLICATIONS = 10_000;

function rowCache(sql: Sql): Map<string, ApplicationRecord> {
  let rows = rowsBySql.get(sql);
  if (!rows) {
    rowsBySql.set(sql, rows = new Map());
    const drop = rows;
    freshnessOf(sql).onDrop(() => drop.clear());
  }
  return rows;
}

const BY_ID = prepared<ApplicationRecord, { id: string }>((k, p) => k.selectFrom('applications').selectAll().where('id', '=', p('id')));

const INSERT = prepared<never, ApplicationRecord>((k, p) => k.insertInto('applications').values(bindAll(p, [
  'id', 'account_id', 'name', 'settlement_address', 'default_deposit_type', 'status', 'logo_url', 'logo_file', 'logo_content_type', 'created_at', 'updated_at',
])));

const UNOWNED_BY_NAME = prepared<ApplicationRecord, { name: string }>((k, p) => k.selectFrom('applications').selectAll()
  .where('account_id', 'is', null).where('name', '=', p('name')).orderBy('created_at').limit(1));

type IntentDefaults = Pick<ApplicationRecord, 'settlement_address' | 'default_deposit_type'>;
const INTENT_DEFAULTS = prepared<IntentDefaults, { id: string }>((k, p) =>
  k.selectFrom('applications').select(['settlement_address', 'default_deposit_type']).where('id', '=', p('id')));

/** The application row by id, cached (see rowCache); shared by every repo that needs it. */
export async function findApplicationRow(source: SqlSource, id: string): Promise<ApplicationRecord | undefined> {
  const sql = sqlOf(source);
  const freshness = freshnessOf(sql);
  const due = freshness.fresh();
  if (due) await due;
  const rows = rowCache(sql);
  let app = rows.get(id);
  if (!app) {
    const epoch = freshness.epoch;
    app = await sql.get(BY_ID, { id });
    if (!app) return undefined;
    if (freshness.epoch === epoch) {
      if (rows.size >= MAX_CACHED_APPLICATIONS) rows.clear();
      rows.set(id, app);
    }
  }
  // a copy: callers may hold or change their record without touching the cached row
  return { ...app };
}

/**
 * What a new intent takes from its application when the request does not say, as the database
 * holds it now, never cached: where a new intent's money goes must not be a second old (the
 * previous settlement address may be compromised).
 */
export async function currentIntentDefaults(source: SqlSource, id: string): Promise<IntentDefaults | undefined> {
  return sqlOf(source).get(INTENT_DEFAULTS, { id });
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

  async update(id: string, fields: Partial<Pick<ApplicationRecord, 'account_id' | 'name' | 'settlement_address' | 'default_deposit_type' | 'status' | 'logo_url' | 'logo_file' | 'logo_content_type'>>, updatedAt: string): Promise<void> {
    const set = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
    if (Object.keys(set).length === 0) return;
    // the generation in the same transaction: a server that sees it moved sees the new row
    await this.sql.transaction(async () => {
      await this.sql.run(dynamic((k) => k.updateTable('applications').set({ ...set, updated_at: updatedAt }).where('id', '=', id)));
      await freshnessOf(this.sql).bump();
    });
  }
}
