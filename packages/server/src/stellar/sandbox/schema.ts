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
  // An account's extra signers (ed25519 keys), each a subentry whose reserve `sponsor` may pay.
  `CREATE TABLE IF NOT EXISTS sbx_signers (
     account TEXT NOT NULL, key TEXT NOT NULL, weight INTEGER NOT NULL, sponsor TEXT,
     PRIMARY KEY (account, key))`,
  `CREATE INDEX IF NOT EXISTS sbx_signers_key ON sbx_signers (key)`,
  `CREATE TABLE IF NOT EXISTS sbx_transactions (
     hash TEXT PRIMARY KEY, ledger INTEGER NOT NULL, successful INTEGER NOT NULL,
     resource TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS sbx_operations (
     id INTEGER PRIMARY KEY, tx_hash TEXT NOT NULL, successful INTEGER NOT NULL,
     record TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS sbx_op_accounts (
     account TEXT NOT NULL, op_id INTEGER NOT NULL, PRIMARY KEY (account, op_id))`,
  // History Horizon serves beyond payments: every transaction by participant, effects, ledgers.
  `CREATE TABLE IF NOT EXISTS sbx_tx_accounts (
     account TEXT NOT NULL, paging INTEGER NOT NULL, PRIMARY KEY (account, paging))`,
  `CREATE TABLE IF NOT EXISTS sbx_effects (
     op_id INTEGER NOT NULL, idx INTEGER NOT NULL, account TEXT NOT NULL, tx_hash TEXT NOT NULL,
     record TEXT NOT NULL, PRIMARY KEY (op_id, idx))`,
  `CREATE INDEX IF NOT EXISTS sbx_effects_account ON sbx_effects (account, op_id, idx)`,
  `CREATE INDEX IF NOT EXISTS sbx_effects_tx ON sbx_effects (tx_hash)`,
  `CREATE TABLE IF NOT EXISTS sbx_ledgers (
     seq INTEGER PRIMARY KEY, hash TEXT NOT NULL, prev_hash TEXT NOT NULL, closed_at TEXT NOT NULL,
     header_xdr TEXT NOT NULL, tx_ok INTEGER NOT NULL DEFAULT 0, tx_failed INTEGER NOT NULL DEFAULT 0,
     ops INTEGER NOT NULL DEFAULT 0, tx_set_ops INTEGER NOT NULL DEFAULT 0, fees TEXT NOT NULL DEFAULT '0')`,
];

/** Creates the sandbox tables (idempotent); the server calls it with its own Database. */
export function migrateSandbox(db: Database): void {
  db.transaction(() => {
    for (const sql of STATEMENTS) db.prepare(sql).run();
    addColumns(db);
  })();
}

/**
 * An account's options (setOptions); an older sandbox file gets stellar-core's defaults: master
 * weight 1, thresholds 0, no flags, no home domain.
 */
const ACCOUNT_OPTIONS: Array<[string, string]> = [
  ['master_weight', 'INTEGER NOT NULL DEFAULT 1'],
  ['low_threshold', 'INTEGER NOT NULL DEFAULT 0'],
  ['med_threshold', 'INTEGER NOT NULL DEFAULT 0'],
  ['high_threshold', 'INTEGER NOT NULL DEFAULT 0'],
  ['flags', 'INTEGER NOT NULL DEFAULT 0'],
  ['home_domain', "TEXT NOT NULL DEFAULT ''"],
  ['inflation_dest', 'TEXT'],
];

/**
 * Columns added after the first release, for sandbox files made by an older server: every
 * operation is now recorded (old rows were all payments), transactions sort by their paging
 * token (old ledgers held one transaction each, at order 1), and accounts have options.
 */
function addColumns(db: Database): void {
  const has = (table: string, column: string) =>
    (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).some((c) => c.name === column);
  for (const [column, type] of ACCOUNT_OPTIONS) {
    if (!has('sbx_accounts', column)) db.prepare(`ALTER TABLE sbx_accounts ADD COLUMN ${column} ${type}`).run();
  }
  if (!has('sbx_operations', 'is_payment')) {
    db.prepare('ALTER TABLE sbx_operations ADD COLUMN is_payment INTEGER NOT NULL DEFAULT 1').run();
  }
  if (!has('sbx_transactions', 'paging')) {
    db.prepare('ALTER TABLE sbx_transactions ADD COLUMN paging INTEGER').run();
    db.prepare('UPDATE sbx_transactions SET paging = (ledger << 32) | 4096').run();
    db.prepare(`INSERT OR IGNORE INTO sbx_tx_accounts (account, paging)
      SELECT a.account, t.paging FROM sbx_op_accounts a JOIN sbx_operations o ON o.id = a.op_id
      JOIN sbx_transactions t ON t.hash = o.tx_hash`).run();
  }
  db.prepare('CREATE INDEX IF NOT EXISTS sbx_transactions_paging ON sbx_transactions (paging)').run();
  db.prepare('CREATE INDEX IF NOT EXISTS sbx_operations_tx ON sbx_operations (tx_hash)').run();
}
