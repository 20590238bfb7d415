import type Database from 'better-sqlite3';

export type Db = Database.Database;

const STATEMENT_CACHE_SIZE = 500;

/**
 * Queries call `db.prepare(sql)` where they need a statement; compiling SQL is then most of a
 * query's time. Statements are reusable, so `prepare` hands out one cached statement per SQL
 * text, with the per-statement modes (safeIntegers, pluck, raw, expand) reset to their defaults
 * so each call site sees a fresh statement. Least recently used statements are dropped past 500.
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
