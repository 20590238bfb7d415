/**
 * Runs prepared queries on PostgreSQL, over a pg pool. A transaction checks out one client and
 * keeps it in AsyncLocalStorage, so every query inside the callback (through any repository)
 * runs on it; a nested transaction is a savepoint.
 *
 * Transactions take one writer lock (an advisory lock held to COMMIT), so they run one at a time
 * as on SQLite (BEGIN IMMEDIATE): the services' read-check-write transactions ("two requests can
 * never both pass the checks") were written for a single writer, and under READ COMMITTED two
 * of them would both pass. A process queues its writer transactions itself, so at most one of
 * its connections waits for or holds the lock. Reads outside a transaction do not wait. The request path's own
 * transactions (creates, idempotency claims, rate-limit buckets, request logs, webhook claims)
 * guard their rows themselves and skip the lock (`selfLocking`), so they scale with processes.
 *
 * Values come back as SQLite gives them, so repositories read one shape on both engines:
 * int8 and numeric as BigInt when the query asks for `bigint`, else as numbers; booleans as 1/0.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import { bindable, inSavepoint, type Prepared, type Sql, type TransactionOptions } from './sql.js';
import type { Dialect } from './migrations/migration.js';

const INT8 = 20;
const NUMERIC = 1700;
const BOOL = 16;
/** the writer lock's advisory key (the migration lock is 'fund') */
const WRITER_LOCK = 0x66756e77; // 'funw'
/** how long a writer waits for the one before it in this process (store.ts's idle transaction timeout) */
const WRITER_QUEUE_PATIENCE_MS = 30_000;

type Parser = (value: string) => unknown;
// per-query parsers replace the pool's wholesale: every other type falls back to pg's own
const typesFor = (bigint: boolean) => ({
  getTypeParser(oid: number, format?: 'text' | 'binary'): Parser {
    if (oid === INT8 || oid === NUMERIC) return bigint ? BigInt : Number;
    if (oid === BOOL) return (value) => (value === 't' ? 1 : 0);
    return pg.types.getTypeParser(oid, format as 'text') as Parser;
  },
});
const TYPES = { bigint: typesFor(true), number: typesFor(false) };

interface PgTx {
  client: pg.PoolClient;
  depth: number;
  open: boolean;
  hooks: Array<() => void>;
}

export class PostgresSql implements Sql {
  readonly dialect: Dialect = 'postgres';
  private readonly context = new AsyncLocalStorage<PgTx>();
  /** settles when the last writer transaction queued in this process has ended */
  private writerTail: Promise<void> = Promise.resolve();

  constructor(readonly pool: pg.Pool) {}

  /** The open transaction of this context, if any. */
  private own(): PgTx | undefined {
    const tx = this.context.getStore();
    return tx?.open ? tx : undefined;
  }

  private async query(query: Prepared<unknown, unknown>, args: object, rowMode?: 'array'): Promise<pg.QueryResult> {
    const { sql, parameters } = query.compiled('postgres');
    const values = parameters.map((p) => {
      const value = 'arg' in p ? (args as Record<string, unknown>)[p.arg] : p.fixed;
      // arrays go as arrays (`= ANY(CAST($1 AS text[]))`); booleans as the 0/1 flags of the schema
      return Array.isArray(value) ? value.map(bindable) : bindable(value);
    });
    const config: pg.QueryConfig & { rowMode?: 'array' } = { text: sql, values, types: query.options.bigint ? TYPES.bigint : TYPES.number };
    if (rowMode) config.rowMode = rowMode;
    // named: parsed and planned once per connection instead of at every execution
    if (query.name) config.name = query.name;
    return (this.own()?.client ?? this.pool).query(config as pg.QueryConfig);
  }

  async all<Row, Args>(query: Prepared<Row, Args>, args: Args = {} as Args): Promise<Row[]> {
    return (await this.query(query, args as object)).rows as Row[];
  }

  async get<Row, Args>(query: Prepared<Row, Args>, args: Args = {} as Args): Promise<Row | undefined> {
    return (await this.query(query, args as object)).rows[0] as Row | undefined;
  }

  async column<Value, Args>(query: Prepared<Record<string, Value>, Args>, args: Args = {} as Args): Promise<Value[]> {
    return (await this.query(query, args as object, 'array')).rows.map((row) => (row as unknown[])[0] as Value);
  }

  async arrays<Args>(query: Prepared<unknown, Args>, args: Args = {} as Args): Promise<unknown[][]> {
    return (await this.query(query, args as object, 'array')).rows as unknown[][];
  }

  async run<Args>(query: Prepared<unknown, Args>, args: Args = {} as Args): Promise<number> {
    return (await this.query(query, args as object)).rowCount ?? 0;
  }

  async transaction<T>(fn: () => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    const own = this.own();
    if (own) return this.savepoint(own, fn);
    if (options.selfLocking) return this.onClient(['BEGIN'], fn);
    return this.asWriter(() => this.onClient(['BEGIN', `SELECT pg_advisory_xact_lock(${WRITER_LOCK})`], fn));
  }

  /**
   * Runs fn once this process's writer transactions before it have ended. Only one of them can
   * hold the writer lock at a time anyway; queued here, the others wait without a pooled
   * connection, which the request path's own transactions and reads need. (Queued on the lock,
   * nine pipeline transactions held nine of ten connections while one ran a slow query, and every
   * create waited for a connection: creates stalled for seconds.)
   */
  private async asWriter<T>(fn: () => Promise<T>): Promise<T> {
    const before = this.writerTail;
    let done!: () => void;
    this.writerTail = new Promise((resolve) => { done = resolve; });
    let patience: NodeJS.Timeout | undefined;
    try {
      // the queue only spares connections, the lock still keeps writers apart: a writer stuck on
      // something else than the database (its session ended by the server's idle timeout) does
      // not hold up the rest for good
      await Promise.race([before, new Promise((resolve) => { patience = setTimeout(resolve, WRITER_QUEUE_PATIENCE_MS); })]);
      clearTimeout(patience);
      return await fn();
    } finally {
      done();
    }
  }

  /** REPEATABLE READ, READ ONLY: one snapshot for every read, and no writer lock to wait for. */
  async snapshot<T>(fn: () => Promise<T>): Promise<T> {
    if (this.own()) return fn();
    return this.onClient(['BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY'], fn);
  }

  /** Runs fn as a transaction opened with `begin` on a client of its own; afterCommit hooks after the COMMIT. */
  private async onClient<T>(begin: string[], fn: () => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    // a checked-out client whose connection drops emits 'error' on itself, not on the pool: with
    // no listener that ended the process (a network blip to the database took the server down);
    // its query fails on its own, and the broken client is destroyed, never pooled again
    let lost: Error | undefined;
    const onError = (error: Error) => { lost = error; };
    client.on('error', onError);
    const tx: PgTx = { client, depth: 0, open: true, hooks: [] };
    let value: T;
    try {
      for (const statement of begin) await client.query(statement);
      value = await this.context.run(tx, fn);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      tx.open = false;
      client.off('error', onError);
      client.release(lost);
    }
    for (const hook of tx.hooks) this.context.exit(hook);
    return value;
  }

  private savepoint<T>(tx: PgTx, fn: () => Promise<T>): Promise<T> {
    return inSavepoint(tx, fn, (statement) => tx.client.query(statement));
  }


  afterCommit(fn: () => void): void {
    const own = this.own();
    if (own) own.hooks.push(fn);
    else fn();
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
