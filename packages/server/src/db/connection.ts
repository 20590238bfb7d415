import Database from 'better-sqlite3';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigError } from '../config.js';
import { resolveAsset } from '../package-root.js';

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
function cachePreparedStatements(db: Db): void {
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

function migrationsDir(): string {
  // src/db/migrations when run from source; dist/migrations when run from the build.
  return resolveAsset(['src/db/migrations', 'dist/migrations']);
}

/** A database a newer Fundkit migrated: this code would misread what it does not know. */
export class SchemaTooNewError extends ConfigError {}

interface Migration {
  version: number;
  file: string;
}

function knownMigrations(): Migration[] {
  return readdirSync(migrationsDir()).filter((f) => /^\d+_.+\.sql$/.test(f)).sort()
    .map((file) => ({ version: Number(file.split('_')[0]), file }));
}

/**
 * The migrations this code knows that the database has not applied, oldest first. Throws
 * SchemaTooNewError when the database has applied one this code does not know: a newer server
 * migrated it, and this one must not run on it (it would write rows the newer schema reads wrong).
 */
export function pendingMigrations(db: Db): Migration[] {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  const applied = db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all() as { version: number; name: string }[];
  const known = knownMigrations();
  const versions = new Set(known.map((m) => m.version));
  const unknown = applied.filter((m) => !versions.has(m.version));
  if (unknown.length > 0) {
    const newest = known.at(-1);
    throw new SchemaTooNewError(`the database ${db.name} has migration ${unknown.map((m) => m.name).join(', ')}, which this Fundkit `
      + `(migrations up to ${newest?.file ?? 'none'}) does not know: a newer version migrated it; run that version or newer`);
  }
  const done = new Set(applied.map((m) => m.version));
  return known.filter((m) => !done.has(m.version));
}

/** Applies numbered migrations (NNN_name.sql) not yet recorded, each in its own transaction; returns the files applied. */
export function migrate(db: Db): string[] {
  const dir = migrationsDir();
  const applied: string[] = [];
  for (const { version, file } of pendingMigrations(db)) {
    const sql = readFileSync(join(dir, file), 'utf8');
    db.transaction(() => {
      db.exec(sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(version, file, new Date().toISOString());
    })();
    applied.push(file);
  }
  return applied;
}

/** The newest migration the database has applied (0 and null when none). */
export function schemaVersion(db: Db): { version: number; name: string | null } {
  const row = db.prepare('SELECT version, name FROM schema_migrations ORDER BY version DESC LIMIT 1').get() as { version: number; name: string } | undefined;
  return row ?? { version: 0, name: null };
}
