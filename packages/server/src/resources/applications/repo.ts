import type { Db } from '../../db/connection.js';
import type { ApplicationRecord } from '../../http/context.js';
import { KEYSET_WHERE, keysetParams, type PageRequest } from '../../http/pagination.js';

/**
 * Application rows by id, one map per database: every authenticated request needs its
 * application (status, settlement address), and only this repo writes the table, so `insert` and
 * `update` keep the map exact (a deactivation still applies to the next request).
 */
const rowsByDb = new WeakMap<Db, Map<string, ApplicationRecord>>();
const MAX_CACHED_APPLICATIONS = 10_000;

function rowCache(db: Db): Map<string, ApplicationRecord> {
  let rows = rowsByDb.get(db);
  if (!rows) {
    rows = new Map();
    rowsByDb.set(db, rows);
  }
  return rows;
}

/** The application row by id, cached (see rowsByDb); shared by every repo that needs it. */
export function findApplicationRow(db: Db, id: string): ApplicationRecord | undefined {
  const rows = rowCache(db);
  let app = rows.get(id);
  if (!app) {
    app = db.prepare('SELECT * FROM applications WHERE id = ?').get(id) as ApplicationRecord | undefined;
    if (!app) return undefined;
    if (rows.size >= MAX_CACHED_APPLICATIONS) rows.clear();
    rows.set(id, app);
  }
  // a copy: callers may hold or change their record without touching the cached row
  return { ...app };
}

export class ApplicationsRepo {
  constructor(private readonly db: Db) {}

  insert(app: ApplicationRecord): void {
    this.db.prepare(`INSERT INTO applications (id, account_id, name, settlement_address, status, logo_url, logo_file, logo_content_type, created_at, updated_at)
      VALUES (@id, @account_id, @name, @settlement_address, @status, @logo_url, @logo_file, @logo_content_type, @created_at, @updated_at)`).run(app);
  }

  findById(id: string): ApplicationRecord | undefined {
    return findApplicationRow(this.db, id);
  }

  /** Bootstrap identifies unowned applications by name. */
  findUnownedByName(name: string): ApplicationRecord | undefined {
    return this.db.prepare('SELECT * FROM applications WHERE account_id IS NULL AND name = ? ORDER BY created_at LIMIT 1').get(name) as ApplicationRecord | undefined;
  }

  /** accountId null = every application (operator view). */
  list(filter: { accountId?: string; status?: string }, page: PageRequest): ApplicationRecord[] {
    const where = ['1 = 1'];
    if (filter.accountId) where.push('account_id = @accountId');
    if (filter.status) where.push('status = @status');
    if (page.after) where.push(KEYSET_WHERE);
    return this.db.prepare(`SELECT * FROM applications WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT @limitPlusOne`)
      .all({ accountId: filter.accountId ?? null, status: filter.status ?? null, ...keysetParams(page) }) as ApplicationRecord[];
  }

  update(id: string, fields: Partial<Pick<ApplicationRecord, 'name' | 'settlement_address' | 'status' | 'logo_url' | 'logo_file' | 'logo_content_type'>>, updatedAt: string): void {
    const columns = Object.keys(fields).filter((k) => (fields as Record<string, unknown>)[k] !== undefined);
    if (columns.length === 0) return;
    const sets = [...columns.map((c) => `${c} = @${c}`), 'updated_at = @updatedAt'].join(', ');
    this.db.prepare(`UPDATE applications SET ${sets} WHERE id = @id`).run({ ...fields, id, updatedAt });
    rowCache(this.db).delete(id);
  }
}
