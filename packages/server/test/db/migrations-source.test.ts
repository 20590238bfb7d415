/**
 * The migrations are written once, with Kysely's schema builder, for SQLite and PostgreSQL. Existing
 * SQLite databases were migrated with the .sql files kept in legacy-migrations/: on SQLite the
 * builder's migrations must make exactly the schema those made, or an old database and a new one
 * would differ. On PostgreSQL they must be PostgreSQL, and make the same tables, columns and indexes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/db/migrations/index.js';
import { migrationTools, type Dialect } from '../../src/db/migrations/migration.js';
import { freshPostgresDatabase, postgresUrl } from '../helpers/postgres.js';

const LEGACY = join(import.meta.dirname, 'legacy-migrations');
const legacyFiles = readdirSync(LEGACY).filter((f) => /^\d+_.+\.sql$/.test(f)).sort();
/** The migrations that had a .sql file; those after them were written with Kysely from the start. */
const LEGACY_ERA = MIGRATIONS.slice(0, legacyFiles.length);

const compiled = (dialect: Dialect, migrations = LEGACY_ERA) => migrations.map((m) => ({
  name: m.name,
  queries: m.up(migrationTools(dialect)).map((statement) => statement.compile()),
}));

function legacyDatabase(): Database.Database {
  const db = new Database(':memory:');
  for (const file of legacyFiles) db.exec(readFileSync(join(LEGACY, file), 'utf8'));
  return db;
}

function builtDatabase(migrations = LEGACY_ERA): Database.Database {
  const db = new Database(':memory:');
  // prepare() as the runner does: it also refuses a statement that is really two
  for (const { queries } of compiled('sqlite', migrations)) for (const q of queries) db.prepare(q.sql).run(...q.parameters);
  return db;
}

/** SQL text compared without its spelling: identifier quotes, keyword case, spacing (string literals kept as they are). */
function normalized(text: string): string {
  return text.split(/('(?:[^']|'')*')/).map((part, i) => (i % 2 === 1 ? part : part.replace(/"/g, '').toLowerCase()
    .replace(/\s+/g, ' ').replace(/\s*([(),=<>])\s*/g, '$1'))).join('').trim();
}

/** A column's type affinity, by SQLite's rules (https://www.sqlite.org/datatype3.html#determination_of_column_affinity). */
function affinity(declared: string): string {
  const type = declared.toUpperCase();
  if (type.includes('INT')) return 'INTEGER';
  if (/CHAR|CLOB|TEXT/.test(type)) return 'TEXT';
  if (type === '' || type.includes('BLOB')) return 'BLOB';
  if (/REAL|FLOA|DOUB/.test(type)) return 'REAL';
  return 'NUMERIC';
}

/** The CHECK (...) clauses of a CREATE TABLE, in order. */
function checks(createTable: string): string[] {
  const found: string[] = [];
  const text = normalized(createTable);
  for (let at = text.indexOf('check('); at >= 0; at = text.indexOf('check(', at + 1)) {
    let depth = 0;
    let end = at + 'check'.length;
    for (; end < text.length; end++) {
      if (text[end] === '(') depth++;
      else if (text[end] === ')' && --depth === 0) break;
    }
    found.push(text.slice(at, end + 1));
  }
  return found;
}

interface Row { [column: string]: unknown }

/** Everything about a SQLite schema that a query or a write can tell apart. */
function schemaOf(db: Database.Database) {
  const all = (sql: string, ...args: unknown[]) => db.prepare(sql).all(...args) as Row[];
  const tables = all("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name") as { name: string; sql: string }[];
  return {
    tables: Object.fromEntries(tables.map(({ name, sql }) => [name, {
      autoincrement: /\bautoincrement\b/i.test(sql),
      checks: checks(sql),
      columns: all('SELECT * FROM pragma_table_info(?) ORDER BY cid', name).map((c) => ({
        name: c.name, type: String(c.type).toUpperCase(), affinity: affinity(String(c.type)), notnull: c.notnull, pk: c.pk,
        default: c.dflt_value === null ? null : normalized(String(c.dflt_value)),
      })),
      indexes: all('SELECT * FROM pragma_index_list(?) ORDER BY name', name).map((i) => {
        const sql = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?").pluck().get(i.name) as string | null;
        return {
          name: i.name, unique: i.unique, origin: i.origin, partial: i.partial,
          columns: all('SELECT * FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno', i.name)
            .map((k) => `${k.name} ${k.desc ? 'desc' : 'asc'} ${k.coll}`),
          where: i.partial ? normalized(sql!.replace(/^[\s\S]*?\bwhere\b/i, '')) : null,
        };
      }),
      foreignKeys: all('SELECT * FROM pragma_foreign_key_list(?)', name)
        .map((f) => `${f.from} -> ${f.table}(${f.to}) on update ${f.on_update} on delete ${f.on_delete} match ${f.match}`).sort(),
    }])),
    triggers: all("SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
      .map((t) => ({ ...t, sql: normalized(String(t.sql)) })),
    views: all("SELECT name FROM sqlite_master WHERE type = 'view'"),
  };
}

describe('the migrations, built with Kysely for SQLite', () => {
  it('are the legacy .sql files, one for one, in version order, then the newer ones', () => {
    expect(LEGACY_ERA.map((m) => `${m.name}.sql`)).toEqual(legacyFiles);
    for (const m of MIGRATIONS) expect(m.version).toBe(Number(m.name.split('_')[0]));
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((m) => m.version).sort((a, b) => a - b));
  });

  it('make the schema the legacy .sql files made: tables, columns, keys, checks, indexes, triggers', () => {
    const legacy = schemaOf(legacyDatabase());
    const built = schemaOf(builtDatabase());
    // the comparison compares something
    expect(Object.keys(legacy.tables).length).toBeGreaterThan(25);
    expect(legacy.tables.funding_intents!.indexes.length).toBeGreaterThan(5);
    expect(legacy.tables.refunds!.checks.length).toBeGreaterThan(2);
    expect(legacy.triggers).toHaveLength(2);
    expect(built).toEqual(legacy);
  });

  it('keep the row_version triggers working', () => {
    const db = builtDatabase();
    db.exec(`INSERT INTO applications (id, name, created_at, updated_at) VALUES ('app', 'n', 't', 't');
      INSERT INTO funding_intents (id, application_id, environment, status, requirement_amount, requirement_asset, destination_network,
        destination_asset, destination_address, expires_at, created_at, updated_at)
      VALUES ('fi', 'app', 'test', 'CREATED', 1, 'USDC', 'stellar', 'USDC', 'G', 't', 't', 't')`);
    const version = () => db.prepare("SELECT row_version FROM funding_intents WHERE id = 'fi'").pluck().get() as number;
    const inserted = version();
    expect(inserted).not.toBe(0);
    db.exec("UPDATE funding_intents SET status = 'EXPIRED'");
    expect(version()).not.toBe(inserted);
    expect(Math.abs(version())).toBeLessThanOrEqual(2 ** 52);
  });
});

describe('migration 024 (the events list in commit order)', () => {
  it('places the events a database already has in the order they were listed: created_at, then id', () => {
    const before = MIGRATIONS.filter((m) => m.version < 24);
    const db = builtDatabase(before);
    const insert = db.prepare("INSERT INTO events (id, type, application_id, environment, created_at, payload) VALUES (?, 'payment.pending', 'app', 'test', ?, '{}')");
    insert.run('evt_b', '2026-01-01T00:00:02.000Z');
    insert.run('evt_c', '2026-01-01T00:00:01.000Z');
    insert.run('evt_a', '2026-01-01T00:00:02.000Z');
    for (const { queries } of compiled('sqlite', MIGRATIONS.filter((m) => m.version === 24))) for (const q of queries) db.prepare(q.sql).run(...q.parameters);
    expect(db.prepare('SELECT id, seq FROM events ORDER BY seq').all()).toEqual([
      { id: 'evt_c', seq: 1 }, { id: 'evt_a', seq: 2 }, { id: 'evt_b', seq: 3 },
    ]);
    expect(() => db.prepare("UPDATE events SET seq = 1 WHERE id = 'evt_b'").run()).toThrow(/UNIQUE/);
  });
});

// (A trigger's BEFORE INSERT OR UPDATE is PostgreSQL; INSERT OR IGNORE is not.) A 32-bit integer would
// overflow on stroops: every integer column is t.int, bigint there.
const SQLITE_ONLY = [/autoincrement/i, /auto_increment/i, /random\(\)\s*>>/i, /\binsert\s+or\s+(replace|ignore|abort|fail|rollback)\b/i,
  /\breplace\s+into\b/i, /\binteger\b/i];

/** What each PostgreSQL type is on SQLite (t.int is bigint there, integer here). */
const SQLITE_TYPE: Record<string, string> = { bigint: 'INTEGER', text: 'TEXT' };

describe('the migrations, built with Kysely for PostgreSQL', () => {
  const statements = compiled('postgres', MIGRATIONS).flatMap(({ name, queries }) => queries.map((q) => ({ name, sql: q.sql })));

  it('compile, and say nothing only SQLite understands', () => {
    expect(statements.length).toBeGreaterThan(50);
    for (const { name, sql } of statements) {
      for (const pattern of SQLITE_ONLY) expect(sql, `${name}: ${sql}`).not.toMatch(pattern);
    }
  });

  it.skipIf(!postgresUrl)('apply on PostgreSQL, and make the tables, columns, indexes, keys and checks SQLite has', async () => {
    const client = new pg.Client({ connectionString: await freshPostgresDatabase('migrations_source') });
    await client.connect();
    try {
      for (const { queries } of compiled('postgres', MIGRATIONS)) {
        await client.query('BEGIN');
        for (const q of queries) await client.query(q.sql, [...q.parameters]);
        await client.query('COMMIT');
      }
      const rows = async (sql: string) => (await client.query(sql)).rows as Row[];
      const columns = await rows(`SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
        WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`);
      const indexes = await rows(`SELECT t.relname AS table, i.relname AS name, ix.indisunique AS unique, ix.indpred IS NOT NULL AS partial,
          (SELECT array_agg(a.attname::text ORDER BY k.n) FROM unnest(ix.indkey) WITH ORDINALITY AS k(attnum, n)
            JOIN pg_attribute a ON a.attrelid = ix.indrelid AND a.attnum = k.attnum) AS columns
        FROM pg_index ix JOIN pg_class i ON i.oid = ix.indexrelid JOIN pg_class t ON t.oid = ix.indrelid
        JOIN pg_namespace s ON s.oid = t.relnamespace WHERE s.nspname = 'public' ORDER BY t.relname, i.relname`);
      const constraints = await rows(`SELECT conrelid::regclass::text AS table, contype AS type, conname AS name
        FROM pg_constraint WHERE connamespace = 'public'::regnamespace`);
      const sqlite = schemaOf(builtDatabase(MIGRATIONS));
      const sqliteTables = Object.entries(sqlite.tables).filter(([name]) => !name.startsWith('sqlite_'));

      const pgSchema = Object.fromEntries([...new Set(columns.map((c) => String(c.table_name)))].map((table) => [table, {
        columns: columns.filter((c) => c.table_name === table)
          .map((c) => `${c.column_name} ${SQLITE_TYPE[String(c.data_type)] ?? c.data_type} ${c.is_nullable === 'NO'}`),
        // every index, by the columns it keys (SQLite names a constraint's index itself, PostgreSQL after the constraint)
        indexes: indexes.filter((i) => i.table === table)
          .map((i) => `${i.unique} ${i.partial} (${(i.columns as string[]).join(', ')})`).sort(),
        foreignKeys: constraints.filter((c) => c.table === table && c.type === 'f').length,
        checks: constraints.filter((c) => c.table === table && c.type === 'c').length,
      }]));
      const sqliteSchema = Object.fromEntries(sqliteTables.map(([table, t]) => [table, {
        // a primary key is NOT NULL on PostgreSQL, whatever SQLite lets a TEXT one hold
        columns: t.columns.map((c) => `${c.name} ${c.type} ${c.notnull === 1 || c.pk !== 0}`),
        indexes: [
          ...t.indexes.map((i) => `${i.unique === 1} ${i.partial === 1} (${i.columns.map((k) => k.split(' ')[0]).join(', ')})`),
          // an INTEGER PRIMARY KEY is the rowid on SQLite, with no index of its own
          ...t.columns.filter((c) => c.pk === 1 && c.type === 'INTEGER' && !t.indexes.some((i) => i.origin === 'pk'))
            .map((c) => `true false (${c.name})`),
        ].sort(),
        foreignKeys: t.foreignKeys.length,
        checks: t.checks.length,
      }]));
      expect(pgSchema).toEqual(sqliteSchema);
      // and the indexes a migration names (not a key's or a UNIQUE's) have the same names
      const keyIndexes = new Set(constraints.filter((c) => c.type === 'p' || c.type === 'u').map((c) => c.name));
      expect(indexes.map((i) => i.name).filter((name) => !keyIndexes.has(name)).sort()).toEqual(
        sqliteTables.flatMap(([, t]) => t.indexes.filter((i) => i.origin === 'c').map((i) => i.name)).sort());

      // the version trigger: set on insert, changed by an update that leaves it, kept when an update sets it
      await client.query(`INSERT INTO applications (id, name, created_at, updated_at) VALUES ('app', 'n', 't', 't');
        INSERT INTO funding_intents (id, application_id, environment, status, requirement_amount, requirement_asset, destination_network,
          destination_asset, destination_address, expires_at, created_at, updated_at)
        VALUES ('fi', 'app', 'test', 'CREATED', 1, 'USDC', 'stellar', 'USDC', 'G', 't', 't', 't')`);
      const version = async () => Number((await rows("SELECT row_version FROM funding_intents WHERE id = 'fi'"))[0]!.row_version);
      const inserted = await version();
      expect(inserted).not.toBe(0);
      await client.query("UPDATE funding_intents SET status = 'EXPIRED'");
      const updated = await version();
      expect(updated).not.toBe(inserted);
      expect(Math.abs(updated)).toBeLessThanOrEqual(2 ** 52);
      await client.query("UPDATE funding_intents SET row_version = 42, status = 'CREATED'");
      expect(await version()).toBe(42);
    } finally {
      await client.end();
    }
  });
});
