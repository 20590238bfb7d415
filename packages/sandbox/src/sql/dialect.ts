import {
  DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, SqliteAdapter,
  SqliteIntrospector, SqliteQueryCompiler, sql, type ColumnDefinitionBuilder, type Compilable,
} from 'kysely';

/** The database engines Fundkit runs on. */
export type Dialect = 'sqlite' | 'postgres';

/**
 * What a migration writes its statements with. A migration is written once, for both engines,
 * with Kysely's schema builder; the few spellings that differ between SQLite and PostgreSQL are
 * here, so a migration names what it means (a 64-bit integer, an auto-numbered key) and not how
 * one engine spells it.
 */
export interface MigrationTools {
  dialect: Dialect;
  /** Kysely's schema builder (create/alter/drop table, index); only compiled here, never run. */
  schema: Kysely<any>['schema'];
  /** Kysely's query builder, for the rare migration that moves data. */
  db: Kysely<any>;
  /**
   * A 64-bit integer (stroops, counters, 0/1 flags): SQLite's INTEGER is already 64 bits (and
   * keeps `INTEGER PRIMARY KEY` SQLite's rowid); PostgreSQL's would be 32, so BIGINT there.
   */
  int: 'integer' | 'bigint';
  /** Makes a column an auto-numbered 64-bit primary key (AUTOINCREMENT / an identity column). */
  identity: (column: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;
  /** A statement spelled the same on both engines, or one branch of `dialect`. */
  raw: (text: string) => Compilable;
}

export interface Migration {
  /** Its number: the order it runs in, and what `schema_migrations` records. */
  version: number;
  name: string;
  /** The statements, in order; the runner applies them and records the version in one transaction. */
  up(tools: MigrationTools): Compilable[];
}

/** A Kysely that compiles for `dialect` and cannot execute: migrations only build SQL. */
export function compilerFor(dialect: Dialect): Kysely<any> {
  const [Adapter, Introspector, Compiler] = dialect === 'sqlite'
    ? [SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler]
    : [PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler];
  return new Kysely<any>({
    dialect: {
      createAdapter: () => new Adapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new Introspector(db),
      createQueryCompiler: () => new Compiler(),
    },
  });
}

export function migrationTools(dialect: Dialect): MigrationTools {
  const db = compilerFor(dialect);
  return {
    dialect,
    schema: db.schema,
    db,
    int: dialect === 'sqlite' ? 'integer' : 'bigint',
    identity: (column) => (dialect === 'sqlite'
      ? column.primaryKey().autoIncrement()
      : column.primaryKey().generatedByDefaultAsIdentity()),
    raw: (text) => ({ compile: () => sql.raw(text).compile(db) }),
  };
}
