import type { CompiledQuery } from 'kysely';
import pg from 'pg';
import { ConfigError } from '../config.js';
import type { Db } from './connection.js';
import { MIGRATIONS } from './migrations/index.js';
import { migrationTools, type Dialect, type Migration } from './migrations/migration.js';
import { migrateSandbox } from './migrations/020_sandbox_legacy.js';
import { DROP_SANDBOX_VERSION, refusePostgresChain, refuseSqliteChain } from './legacy-sandbox.js';

/** A database a newer Fundkit migrated: this code would misread what it does not know. */
export class SchemaTooNewError extends ConfigError {}

export interface AppliedMigration {
  version: number;
  name: string;
}

const CREATE_TABLE = 'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)';
const READ_APPLIED = 'SELECT version, name FROM schema_migrations ORDER BY version';

/**
 * The migrations this code knows that the database has not applied, oldest first. Throws
 * SchemaTooNewError when the database has applied one this code does not know: a newer server
 * migrated it, and this one must not run on it (it would write rows the newer schema reads wrong).
 */
export function pendingOf(applied: AppliedMigration[], database: string, known: Migration[] = MIGRATIONS): Migration[] {
  const versions = new Set(known.map((m) => m.version));
  const unknown = applied.filter((m) => !versions.has(Number(m.version)));
  if (unknown.length > 0) {
    throw new SchemaTooNewError(`the database ${database} has migration ${unknown.map((m) => m.name).join(', ')}, which this Fundkit `
      + `(migrations up to ${known.at(-1)?.name ?? 'none'}) does not know: a newer version migrated it; run that version or newer`);
  }
  const done = new Set(applied.map((m) => Number(m.version)));
  return known.filter((m) => !done.has(m.version));
}

function compiled(migration: Migration, dialect: Dialect): CompiledQuery[] {
  return migration.up(migrationTools(dialect)).map((statement) => statement.compile());
}

const record = (migration: Migration): unknown[] => [migration.version, migration.name, new Date().toISOString()];

/** SQLite: the pending migrations of an open database (see pendingOf). */
export function pendingMigrations(db: Db): Migration[] {
  db.exec(CREATE_TABLE);
  return pendingOf(db.prepare(READ_APPLIED).all() as AppliedMigration[], db.name);
}

/**
 * SQLite: what runs first in a migration's transaction. 020 makes the sandbox ledger's tables,
 * which older servers made themselves: an older file's are brought to 020's shape first, as 020
 * indexes a column they lack (migrateSandbox; nothing without them). 036 drops them: a database
 * whose tables still hold a chain is refused first (legacy-sandbox.ts).
 */
const SQLITE_BEFORE: Partial<Record<number, (db: Db) => void>> = { 20: migrateSandbox, [DROP_SANDBOX_VERSION]: refuseSqliteChain };

/** SQLite: applies the pending migrations, each in its own transaction; returns their names. */
export function migrate(db: Db): string[] {
  const applied: string[] = [];
  for (const migration of pendingMigrations(db)) {
    db.transaction(() => {
      SQLITE_BEFORE[migration.version]?.(db);
      for (const query of compiled(migration, 'sqlite')) db.prepare(query.sql).run(...query.parameters);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(...record(migration));
    })();
    applied.push(migration.name);
  }
  return applied;
}

/** SQLite: the newest migration the database has applied (0 and null when none). */
export function schemaVersion(db: Db): { version: number; name: string | null } {
  const row = db.prepare('SELECT version, name FROM schema_migrations ORDER BY version DESC LIMIT 1').get() as AppliedMigration | undefined;
  return row ?? { version: 0, name: null };
}

/**
 * Serializes migrations of one PostgreSQL database: several servers starting at once (or a
 * deploy's `fundkit migrate` beside them) apply each migration once; the others wait, then find
 * nothing pending. A session lock, so a crashed migrator's lock goes with its connection.
 */
const MIGRATION_LOCK = 0x66756e64; // 'fund'

/** Where a PostgreSQL URL points, without its password (for messages). */
export function describePostgres(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

export interface PostgresMigration {
  applied: string[];
  version: number;
  name: string | null;
}

/**
 * PostgreSQL: applies the pending migrations under the migration lock, each in its own
 * transaction (PostgreSQL's DDL is transactional: a failed migration leaves nothing behind).
 * With `apply: false` only checks, and throws SchemaTooNewError as start-up must.
 */
export async function migratePostgres(url: string, options: { apply?: boolean } = {}): Promise<PostgresMigration> {
  const client = new pg.Client({ connectionString: url });
  await client.connect().catch((error: Error & { code?: string }) => {
    // a refused connection to a name with two addresses is an AggregateError with no message
    throw new Error(`cannot connect to ${describePostgres(url)}: ${error.message || error.code || String(error)}`);
  });
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query(CREATE_TABLE);
    const rows = (await client.query<AppliedMigration>(READ_APPLIED)).rows;
    const pending = pendingOf(rows, describePostgres(url));
    const applied: string[] = [];
    for (const migration of options.apply === false ? [] : pending) {
      if (migration.version === DROP_SANDBOX_VERSION) await refusePostgresChain(client, describePostgres(url));
      await inPostgresTransaction(client, async () => {
        for (const query of compiled(migration, 'postgres')) await client.query(query.sql, [...query.parameters]);
        await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', record(migration));
      });
      applied.push(migration.name);
    }
    const newest = (await client.query<AppliedMigration>(`${READ_APPLIED} DESC LIMIT 1`)).rows[0];
    return { applied, version: newest ? Number(newest.version) : 0, name: newest?.name ?? null };
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function inPostgresTransaction(client: pg.Client, fn: () => Promise<void>): Promise<void> {
  await client.query('BEGIN');
  try {
    await fn();
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
