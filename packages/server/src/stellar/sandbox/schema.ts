import type { Database } from 'better-sqlite3';

/**
 * Sandbox ledger tables. Amounts are stroops stored as TEXT (decimal) because int64 balances can
 * exceed JavaScript's safe integers; operation ids are INTEGER (bound as BigInt) so they sort.
 */
const STATEMENTS = [
  `CREATE TABLE IF NOT EXISTS sbx_state (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS sbx_keys (
     role TEXT PRIMARY KEY, public_key TEXT NOT NULL, secret TEXT)`,
  `CREATE TABLE IF NOT EXISTS sbx_accounts (
     id TEXT PRIMARY KEY, balance TEXT NOT NULL, seq TEXT NOT NULL,
     subentries INTEGER NOT NULL DEFAULT 0, num_sponsoring INTEGER NOT NULL DEFAULT 0,
     num_sponsored INTEGER NOT NULL DEFAULT 0, sponsor TEXT,
     last_modified_ledger INTEGER NOT NULL, seq_ledger INTEGER NOT NULL, seq_time INTEGER NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS sbx_trustlines (
     account TEXT NOT NULL, asset TEXT NOT NULL, balance TEXT NOT NULL, lim TEXT NOT NULL,
     sponsor TEXT, last_modified_ledger INTEGER NOT NULL, PRIMARY KEY (account, asset))`,
  `CREATE TABLE IF NOT EXISTS sbx_offers (
     id INTEGER PRIMARY KEY AUTOINCREMENT, seller TEXT NOT NULL, selling TEXT NOT NULL,
     buying TEXT NOT NULL, amount TEXT NOT NULL, price_n TEXT NOT NULL, price_d TEXT NOT NULL,
     last_modified_ledger INTEGER NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS sbx_offers_book ON sbx_offers (selling, buying)`,
  `CREATE TABLE IF NOT EXISTS sbx_transactions (
     hash TEXT PRIMARY KEY, ledger INTEGER NOT NULL, successful INTEGER NOT NULL,
     resource TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS sbx_operations (
     id INTEGER PRIMARY KEY, tx_hash TEXT NOT NULL, successful INTEGER NOT NULL,
     record TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS sbx_op_accounts (
     account TEXT NOT NULL, op_id INTEGER NOT NULL, PRIMARY KEY (account, op_id))`,
];

/** Creates the sandbox tables (idempotent); the server calls it with its own Database. */
export function migrateSandbox(db: Database): void {
  db.transaction(() => {
    for (const sql of STATEMENTS) db.prepare(sql).run();
  })();
}
