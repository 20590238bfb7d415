/**
 * The sandbox's SQL: a query is written once with Kysely's query builder and compiled once per
 * dialect (`prepared`), with named parameters filled in at each execution (building and
 * compiling a query costs more than running an indexed SQLite read). Queries whose shape depends
 * on their input are built per call with `dynamic`.
 *
 * The store runs them on any executor with the `Sql` interface declared here: the sandbox's own
 * `SqliteSql` (better-sqlite3, statements cached by connection.ts), or one its host passes (the
 * Fundkit server passes its own, on SQLite or PostgreSQL, to keep a chain in its database). A
 * query is a plain object (`Prepared`): its `compiled(dialect)` gives the SQL text and, per
 * position, a fixed value or the name of the argument to bind.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { resolve as resolvePath } from 'node:path';
import { sql as kysql, type Compilable, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Db } from './connection.js';
import { compilerFor, type Dialect } from './dialect.js';

/** A parameter of a prepared query, bound by name at each execution. */
class Param {
  constructor(readonly name: string) {}
}

/** Names a parameter inside a builder; typed as its value so the builder's own checks apply. */
export type Params<Args> = <K extends keyof Args & string>(name: K) => Args[K];

/** Dialect-specific pieces a builder may need. */
export interface DialectHelpers {
  dialect: Dialect;
  /**
   * `column` is one of the values of `list` (an array argument): json_each on SQLite, ANY on
   * PostgreSQL (the array typed `pgType`[], text unless said).
   */
  oneOf(column: string, list: unknown, pgType?: 'text' | 'bigint'): Expression<SqlBool>;
  /**
   * The values of `list` (an array argument) as a table `alias` with one column, `value`: for
   * queries that go through a list of ids without reading the table the ids belong to.
   */
  // typed loosely: Kysely cannot type a raw table source over a schema it does not know
  values(list: unknown, alias: string, pgType?: 'text' | 'bigint'): any;
  /** The larger of two values: SQLite's two-argument MAX, PostgreSQL's GREATEST. */
  greatest(a: Expression<unknown>, b: Expression<unknown>): Expression<unknown>;
}

export interface QueryOptions {
  /** 64-bit integers as BigInt (stroops can exceed 2^53); else numbers */
  bigint?: boolean;
}

type Builder<Args> = (k: Kysely<any>, p: Params<Args>, d: DialectHelpers) => Compilable;

interface Compiled {
  sql: string;
  /** per position: a fixed value, or the name of the argument to bind */
  parameters: Array<{ fixed: unknown } | { arg: string }>;
}

export interface Prepared<Row, Args> {
  readonly options: QueryOptions;
  /** a stable name for a query built once (PostgreSQL prepares it once per connection); none for `dynamic` */
  readonly name?: string;
  compiled(dialect: Dialect): Compiled;
  /** phantom: the types a query reads and takes */
  readonly __types?: { row: Row; args: Args };
}

function helpers(dialect: Dialect): DialectHelpers {
  return {
    dialect,
    oneOf: (column, list, pgType = 'text') => (dialect === 'sqlite'
      ? kysql<SqlBool>`${kysql.ref(column)} IN (SELECT value FROM json_each(${list}))`
      : kysql<SqlBool>`${kysql.ref(column)} = ANY(CAST(${list} AS ${kysql.raw(pgType)}[]))`),
    values: (list, alias, pgType = 'text') => (dialect === 'sqlite'
      ? kysql`json_each(${list})`.as(alias)
      : kysql`unnest(CAST(${list} AS ${kysql.raw(pgType)}[]))`.as(kysql.raw(`${alias}(value)`) as never)),
    greatest: (a, b) => (dialect === 'sqlite' ? kysql`MAX(${a}, ${b})` : kysql`GREATEST(${a}, ${b})`),
  };
}

const compilers = new Map<Dialect, { k: Kysely<any>; d: DialectHelpers }>();
function compiler(dialect: Dialect) {
  let entry = compilers.get(dialect);
  if (!entry) compilers.set(dialect, entry = { k: compilerFor(dialect), d: helpers(dialect) });
  return entry;
}

function compile(query: Compilable): Compiled {
  const { sql, parameters } = query.compile();
  return { sql, parameters: parameters.map((value) => (value instanceof Param ? { arg: value.name } : { fixed: value })) };
}

const param = ((name: string) => new Param(name)) as Params<any>;

/** Every prepared query of the sandbox, so a test can check each one against a real PostgreSQL schema. */
export const SANDBOX_QUERIES: Array<Prepared<unknown, unknown>> = [];

/** A query built and compiled once per dialect; run it with an executor (`SqliteSql`). */
export function prepared<Row, Args = Record<string, never>>(build: Builder<Args>, options: QueryOptions = {}): Prepared<Row, Args> {
  const byDialect = new Map<Dialect, Compiled>();
  const query: Prepared<Row, Args> = {
    options,
    // its own prefix: a host's executor may prepare its own queries by name on the same connection
    name: `sbx_${SANDBOX_QUERIES.length + 1}`,
    compiled(dialect) {
      let compiled = byDialect.get(dialect);
      if (!compiled) {
        const { k, d } = compiler(dialect);
        byDialect.set(dialect, compiled = compile(build(k, param as Params<Args>, d)));
      }
      return compiled;
    },
  };
  SANDBOX_QUERIES.push(query as Prepared<unknown, unknown>);
  return query;
}

/** `{ column: p(column) }` for each column: the values of a prepared INSERT bound by name. */
export function bindAll<Args, K extends keyof Args & string>(p: Params<Args>, columns: readonly K[]): { [C in K]: Args[C] } {
  return Object.fromEntries(columns.map((c) => [c, p(c)])) as { [C in K]: Args[C] };
}

/** A query built per call (its shape depends on its input); `prepared` for everything else. */
export function dynamic<Row>(build: (k: Kysely<any>, d: DialectHelpers) => Compilable, options: QueryOptions = {}): Prepared<Row, Record<string, never>> {
  return {
    options,
    compiled(dialect) {
      const { k, d } = compiler(dialect);
      return compile(build(k, d));
    },
  };
}

type RowBuilder = (values: unknown[]) => Record<string, unknown>;
const rowBuilders = new WeakMap<object, RowBuilder>();

/**
 * Rows are read as arrays and made into objects by a function generated once per statement from
 * its column names: the same plain objects better-sqlite3 builds, at about half the cost of its
 * object mode (measured: a page of 51 intents, 0.33 → 0.17 ms).
 */
function rowBuilder(statement: { columns(): Array<{ name: string }> }): RowBuilder {
  let build = rowBuilders.get(statement);
  if (!build) {
    const columns = statement.columns().map((c) => c.name);
    // column names are JSON-quoted: nothing from a request reaches this text
    build = new Function('v', `return {${columns.map((name, i) => `${JSON.stringify(name)}: v[${i}]`).join(', ')}};`) as RowBuilder;
    rowBuilders.set(statement, build);
  }
  return build;
}

/**
 * What the sandbox asks of an executor: run prepared queries, and group them in transactions.
 * Asynchronous, though SQLite runs each statement synchronously underneath. A host's executor
 * with more methods (the Fundkit server's Sql) is one too.
 */
export interface Sql {
  readonly dialect: Dialect;
  all<Row, Args>(query: Prepared<Row, Args>, args?: Args): Promise<Row[]>;
  get<Row, Args>(query: Prepared<Row, Args>, args?: Args): Promise<Row | undefined>;
  /** The first column of each row. */
  column<Value, Args>(query: Prepared<Record<string, Value>, Args>, args?: Args): Promise<Value[]>;
  /** A write; how many rows it changed. */
  run<Args>(query: Prepared<unknown, Args>, args?: Args): Promise<number>;
  /**
   * Runs fn in one transaction: every query inside it joins it (it is tracked with
   * AsyncLocalStorage). A nested call is a savepoint, rolled back alone when it throws.
   */
  transaction<T>(fn: () => Promise<T>): Promise<T>;
}

/** The ledger takes an executor, or a SQLite connection (better-sqlite3) it makes its own for. */
export type SqlSource = Sql | Db;

export function sqlOf(source: SqlSource): Sql {
  return 'dialect' in source ? source : SqliteSql.of(source);
}

/**
 * Runs `fn` in savepoint number `tx.depth + 1` of an open transaction (a nested `transaction`),
 * rolled back to it if `fn` throws. Savepoints are a stack: two nested transactions of one
 * context must not overlap.
 */
export async function inSavepoint<T>(tx: { depth: number }, fn: () => Promise<T>, exec: (statement: string) => unknown): Promise<T> {
  const depth = ++tx.depth;
  await exec(`SAVEPOINT sp${depth}`);
  let failed = false;
  try {
    return await fn();
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    if (tx.depth !== depth) throw new Error('nested transactions of one transaction overlapped: await each before the next');
    tx.depth--;
    if (failed) await exec(`ROLLBACK TO SAVEPOINT sp${depth}`);
    await exec(`RELEASE SAVEPOINT sp${depth}`);
  }
}

/** An open transaction; `depth` is the number of open savepoints. */
interface SqliteTx {
  depth: number;
}

/** Who may use a database now: the open transaction's context, and who waits for it. */
class TxGate {
  readonly context = new AsyncLocalStorage<SqliteTx>();
  open: SqliteTx | null = null;
  /** what waits for the open transaction; each entry runs synchronously when let go */
  readonly waiting: Array<() => void> = [];
}

/**
 * Runs prepared queries on a SQLite connection: synchronously underneath, asynchronously to its
 * callers. One per connection (`SqliteSql.of`): a connection has one transaction at a time, and
 * other requests' code runs between the awaits of an open one, so while it is open every query
 * and transaction of any other async context waits, first come first served, until it commits or
 * rolls back. Inside its own context queries run at once.
 */
export class SqliteSql implements Sql {
  readonly dialect: Dialect = 'sqlite';
  private static readonly byDb = new WeakMap<Db, SqliteSql>();
  private static readonly byFile = new Map<string, TxGate>();
  private readonly gate: TxGate;

  static of(db: Db): SqliteSql {
    let sql = SqliteSql.byDb.get(db);
    if (!sql) SqliteSql.byDb.set(db, sql = new SqliteSql(db));
    return sql;
  }

  /**
   * Connections of this process to one file share one gate: a transaction of one, open across
   * awaits, holds SQLite's write lock, and another connection's write would block the thread in
   * busy_timeout while the holder cannot go on (several servers on one file in one process, as in
   * the cluster tests). In-memory databases are each their own.
   */
  private constructor(readonly db: Db) {
    const file = db.memory ? null : resolvePath(db.name);
    let gate = file === null ? undefined : SqliteSql.byFile.get(file);
    if (!gate) {
      gate = new TxGate();
      if (file !== null) SqliteSql.byFile.set(file, gate);
    }
    this.gate = gate;
  }

  private get context(): AsyncLocalStorage<SqliteTx> {
    return this.gate.context;
  }

  private get open(): SqliteTx | null {
    return this.gate.open;
  }

  private set open(tx: SqliteTx | null) {
    this.gate.open = tx;
  }

  private get waiting(): Array<() => void> {
    return this.gate.waiting;
  }

  /** Nothing open, or the open transaction is this context's own. */
  private free(): boolean {
    return this.open === null || this.context.getStore() === this.open;
  }

  /** Runs `work` now if free, else once the open transaction ends (in turn). */
  private exec<T>(work: () => T): Promise<T> {
    if (this.free()) {
      try {
        return Promise.resolve(work());
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return new Promise<T>((resolve, reject) => this.waiting.push(() => {
      try {
        resolve(work());
      } catch (error) {
        reject(error);
      }
    }));
  }

  /** After a transaction ends: lets waiters go in order until one opens a transaction. */
  private release(): void {
    while (this.open === null && this.waiting.length > 0) this.context.exit(this.waiting.shift()!);
  }

  transaction<T>(fn: () => Promise<T>): Promise<T> {
    const own = this.context.getStore();
    if (own && own === this.open) return this.savepoint(own, fn);
    return this.begin('BEGIN IMMEDIATE', fn);
  }

  private begin<T>(statement: 'BEGIN IMMEDIATE', fn: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        const tx: SqliteTx = { depth: 0 };
        try {
          // a transaction a failed ROLLBACK left open: nobody owns it any more
          if (this.db.inTransaction) this.db.exec('ROLLBACK');
          this.db.exec(statement);
        } catch (error) {
          reject(error);
          return;
        }
        this.open = tx;
        let done: Promise<T>;
        try {
          done = this.context.run(tx, fn);
        } catch (error) {
          done = Promise.reject(error);
        }
        // settles the transaction either way; errors go to the caller through reject
        void done.then((value) => {
          try {
            this.end('COMMIT');
          } catch (error) {
            reject(error);
            return;
          }
          resolve(value);
        }, (error: unknown) => {
          try {
            this.end('ROLLBACK');
          } finally {
            reject(error);
          }
        });
      };
      if (this.open === null && this.waiting.length === 0) start();
      else this.waiting.push(start);
    });
  }

  /** Commits (or rolls back) the open transaction and lets the next in line go. */
  private end(how: 'COMMIT' | 'ROLLBACK'): void {
    try {
      if (how === 'COMMIT') this.db.exec('COMMIT');
    } finally {
      try {
        // a ROLLBACK, or a COMMIT that failed and left the transaction open
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
      } finally {
        // whatever failed above, the gate opens: a gate left shut would freeze every query
        this.open = null;
        this.release();
      }
    }
  }

  private savepoint<T>(tx: SqliteTx, fn: () => Promise<T>): Promise<T> {
    return inSavepoint(tx, fn, (statement) => this.db.exec(statement));
  }

  private statement(query: Prepared<unknown, unknown>, args: object) {
    const { sql, parameters } = query.compiled('sqlite');
    const statement = this.db.prepare(sql);
    if (query.options.bigint) statement.safeIntegers(true);
    const values = parameters.map((p) => bindable('arg' in p ? (args as Record<string, unknown>)[p.arg] : p.fixed));
    return { statement, values };
  }

  all<Row, Args>(query: Prepared<Row, Args>, args: Args = {} as Args): Promise<Row[]> {
    return this.exec(() => {
      const { statement, values } = this.statement(query, args as object);
      const build = rowBuilder(statement);
      const rows = statement.raw(true).all(...values) as unknown[][];
      const out = new Array<Row>(rows.length);
      for (let i = 0; i < rows.length; i++) out[i] = build(rows[i]!) as Row;
      return out;
    });
  }

  get<Row, Args>(query: Prepared<Row, Args>, args: Args = {} as Args): Promise<Row | undefined> {
    return this.exec(() => {
      const { statement, values } = this.statement(query, args as object);
      const row = statement.raw(true).get(...values) as unknown[] | undefined;
      return row ? (rowBuilder(statement)(row) as Row) : undefined;
    });
  }

  column<Value, Args>(query: Prepared<Record<string, Value>, Args>, args: Args = {} as Args): Promise<Value[]> {
    return this.exec(() => {
      const { statement, values } = this.statement(query, args as object);
      return statement.pluck(true).all(...values) as Value[];
    });
  }

  run<Args>(query: Prepared<unknown, Args>, args: Args = {} as Args): Promise<number> {
    return this.exec(() => {
      const { statement, values } = this.statement(query, args as object);
      return statement.run(...values).changes;
    });
  }
}

/** Arrays go to json_each as JSON text; booleans as SQLite's 0 and 1. */
export function bindable(value: unknown): unknown {
  if (Array.isArray(value)) return JSON.stringify(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value === undefined ? null : value;
}
