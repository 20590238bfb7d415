import type { Db } from './connection.js';

/**
 * Runs fn in one SQLite transaction (nested calls become savepoints). Every multi-row change,
 * and every state change with its event row, goes through here.
 */
export function inTransaction<T>(db: Db, fn: () => T): T {
  return db.transaction(fn)();
}
