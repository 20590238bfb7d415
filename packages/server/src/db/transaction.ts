import { sqlOf, type SqlSource } from './sql.js';

/**
 * Runs fn in one transaction (nested calls become savepoints). Every multi-row change, and every
 * state change with its event row, goes through here.
 */
export async function inTransaction<T>(source: SqlSource, fn: () => Promise<T>): Promise<T> {
  return sqlOf(source).transaction(fn);
}
