import pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { startCheckpointer } from './checkpointer.js';
import { openDatabase, type Db } from './connection.js';
import { migratePostgres } from './migrate.js';
import { PostgresSql } from './postgres-sql.js';
import { SqliteSql, type Sql } from './sql.js';

/** A transaction idle this long inside its work holds its locks for nobody: PostgreSQL ends it. */
const IDLE_TRANSACTION_MS = 30_000;

/** The server's database: PostgreSQL when FUNDKIT_DATABASE_URL is set, else the SQLite file FUNDKIT_DB. */
export interface DataStore {
  sql: Sql;
  /** the SQLite connection; null on PostgreSQL */
  db: Db | null;
  close(): Promise<void>;
}

/** Opens it and applies pending migrations (on PostgreSQL under the migration lock). */
export async function openDataStore(config: Config, logger: Logger): Promise<DataStore> {
  if (config.databaseUrl !== null) {
    await migratePostgres(config.databaseUrl);
    // a transaction left open (a bug, a stalled process) must not hold its locks for ever: the
    // server ends it after IDLE_TRANSACTION_MS, and its work fails and is retried
    // named, so an operator can tell Fundkit's connections apart in pg_stat_activity
    const pool = new pg.Pool({
      connectionString: config.databaseUrl, max: config.databasePoolSize, application_name: 'fundkit-server',
      options: `-c idle_in_transaction_session_timeout=${IDLE_TRANSACTION_MS}`,
    });
    // an idle client's connection dropping must not end the process; the next query reconnects
    pool.on('error', (error) => logger.warn({ err: error }, 'PostgreSQL connection lost'));
    const sql = new PostgresSql(pool);
    return { sql, db: null, close: () => sql.close() };
  }
  const db = openDatabase(config.dbPath);
  const checkpointer = startCheckpointer(db, config.dbPath, (message) => logger.warn({ message }, 'WAL checkpoint failed'));
  return {
    sql: SqliteSql.of(db),
    db,
    async close() {
      await checkpointer.stop();
      db.close();
    },
  };
}
