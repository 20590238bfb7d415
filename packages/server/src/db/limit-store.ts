/**
 * Where the counters of rate-limiter-flexible live: the server's own database, table rate_limits
 * (migration 031), so a limit holds across every server of the database.
 *
 * PostgreSQL: the library's RateLimiterPostgres on the server's pool. SQLite: the library's
 * RateLimiterSQLite with its three queries run through the server's executor (SqliteSql). The
 * library would run them on the raw better-sqlite3 connection, which the executor shares between
 * requests with transactions open across awaits: its writes would land inside (and roll back
 * with) whichever request's transaction happened to be open.
 */
import { sql as raw, type RawBuilder } from 'kysely';
import { RateLimiterPostgres, RateLimiterSQLite, type RateLimiterRes, type RateLimiterStoreAbstract } from 'rate-limiter-flexible';
import { dynamic, type Sql } from './sql.js';

const TABLE = 'rate_limits';

/** A limiter's refusal: the library rejects with its result (no Error) when no point is left. */
export function isRefusal(error: unknown): error is RateLimiterRes {
  return typeof error === 'object' && error !== null && 'msBeforeNext' in error && !(error instanceof Error);
}

export interface LimitRule {
  /** names the counter: keys are stored as `prefix:key` */
  keyPrefix: string;
  /** points allowed per window (the library's `points`) */
  points: number;
  /** the window, in seconds */
  duration: number;
  /**
   * From this many points consumed, a key is refused in this process until its window ends,
   * without asking the database (the library's in-memory block): a client that floods a refused
   * operation costs no write per request
   */
  inMemoryBlockOnConsumed?: number;
}

type Row = { points: number; expire: number | null };

const query = <R>(build: RawBuilder<unknown>) => dynamic<R>((k) => ({ compile: () => build.compile(k) }));

class ExecutorSQLiteLimiter extends RateLimiterSQLite {
  private readonly executor: Sql;

  constructor(rule: LimitRule, executor: Sql & { db: unknown }) {
    super({ ...rule, storeClient: executor.db, storeType: 'better-sqlite3', tableName: TABLE, tableCreated: true, clearExpiredByTimeout: false });
    this.executor = executor;
  }

  /** The library's upsert (RateLimiterSQLite._upsertTransaction), one statement, so atomic. */
  _upsert(rlKey: string, points: number, msDuration: number, forceExpire = false): Promise<Row | undefined> {
    const now = Date.now();
    const expire = msDuration > 0 ? now + msDuration : null;
    const statement = forceExpire
      ? raw`INSERT OR REPLACE INTO rate_limits (key, points, expire) VALUES (${rlKey}, ${points}, ${expire}) RETURNING points, expire`
      : raw`INSERT INTO rate_limits (key, points, expire) VALUES (${rlKey}, ${points}, ${expire})
          ON CONFLICT(key) DO UPDATE SET
            points = CASE WHEN expire IS NULL OR expire > ${now} THEN points + excluded.points ELSE excluded.points END,
            expire = CASE WHEN expire IS NULL OR expire > ${now} THEN expire ELSE excluded.expire END
          RETURNING points, expire`;
    return this.executor.get(query<Row>(statement));
  }

  async _get(rlKey: string): Promise<Row | null> {
    return (await this.executor.get(query<Row>(raw`SELECT points, expire FROM rate_limits WHERE key = ${rlKey} AND (expire > ${Date.now()} OR expire IS NULL)`))) ?? null;
  }

  async _delete(rlKey: string): Promise<boolean> {
    return (await this.executor.run(query(raw`DELETE FROM rate_limits WHERE key = ${rlKey}`))) > 0;
  }
}

/** Makes the limiters of one database. */
export class LimitStore {
  constructor(private readonly executor: Sql) {}

  limiter(rule: LimitRule): RateLimiterStoreAbstract {
    if (this.executor.dialect === 'postgres') {
      const pool = (this.executor as Sql & { pool: unknown }).pool;
      return new RateLimiterPostgres({ ...rule, storeClient: pool, storeType: 'pool', tableName: TABLE, tableCreated: true, clearExpiredByTimeout: false });
    }
    return new ExecutorSQLiteLimiter(rule, this.executor as Sql & { db: unknown });
  }

  /** Deletes counters that ended (the maintenance worker, hourly). */
  async purgeExpired(now = Date.now()): Promise<number> {
    return this.executor.run(query(raw`DELETE FROM rate_limits WHERE expire < ${now}`));
  }
}
