import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrate, pendingMigrations } from './migrate.js';

export type Db = Database.Database;

/**
 * Opens the database in WAL mode (synchronous NORMAL) with foreign keys on, and applies pending
 * migrations (unless `migrate: false`). A database that has migrations this code does not know
 * is refused either way (SchemaTooNewError).
 */
export function openDatabase(path: string, options: { migrate?: boolean } = {}): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // WAL + NORMAL: a commit is not fsynced until the next checkpoint. A killed process (SIGKILL,
  // crash) loses nothing; only a power loss or OS crash can roll back the last commits, which
  // stay consistent (SQLite's documented WAL durability trade-off). FULL fsynced every request's
  // writes (request log, key use) and was the largest single cost of a create.
  db.pragma('synchronous = NORMAL');
  // reads through a memory map instead of a read() per page: a list of 50 intents touches ~50
  // table pages scattered over the file (measured 2.2 ms → 0.6 ms with 100k intents)
  if (path !== ':memory:') db.pragma('mmap_size = 268435456');
  cachePreparedStatements(db);
  try {
    if (options.migrate === false) pendingMigrations(db);
    else migrate(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Repos call `db.prepare(sql)` where they need a statement, often once per row; compiling SQL is
 * then most of a request's time (measured: a list of 100 intents spent more in `prepare` than in
 * anything else). Statements are reusable, so `prepare` hands out one cached statement per SQL
 * text, with the per-statement modes our code toggles (safeIntegers, pluck, raw, expand) reset
 * to their defaults so each call site sees a fresh statement. Nothing here uses `iterate()`,
 * which would make a shared statement busy. Least recently used statements are dropped past 500.
 */
export function cachePreparedStatements(db: Db): void {
  const compile = db.prepare.bind(db);
  const cache = new Map<string, Database.Statement>();
  db.prepare = ((sql: string) => {
    let statement = cache.get(sql);
    if (statement) {
      cache.delete(sql);
      statement.safeIntegers(false);
      if (statement.reader) statement.pluck(false).expand(false).raw(false);
    } else {
      statement = compile(sql);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    }
    cache.set(sql, statement);
    return statement;
  }) as Db['prepare'];
}
