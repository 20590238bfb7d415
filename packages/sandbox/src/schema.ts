import type { Database } from 'better-sqlite3';
import { migration as sandboxLedger, txAccountsTable } from './sql/ledger-tables.js';
import { migration as sandboxPending } from './sql/pending-tables.js';
import { migrationTools } from './sql/dialect.js';
import type { Compilable } from 'kysely';

// The sandbox's tables are migrations 020's and 025's (db/migrations/020_sandbox_ledger.ts, 025_sandbox_pending.ts). What is left
// here is for SQLite files an older server made, which had the tables made by the sandbox itself.

function run(db: Database, statement: Compilable): void {
  const { sql, parameters } = statement.compile();
  db.prepare(sql).run(...parameters);
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
 * Columns added after the first release, for sandbox tables made by an older server, to the shape
 * migration 020 makes (SQLite only: no other database predates it): every operation is now
 * recorded (old rows were all payments), transactions sort by their paging token (old ledgers
 * held one transaction each, at order 1), accounts have options, and trustlines keep the order
 * they were made in (the rowid, which PostgreSQL has not). A table the file lacks is left to 020.
 *
 * Runs before migration 020, in its transaction (db/migrate.ts): 020 indexes sbx_transactions.paging.
 * Changes nothing on a database without sandbox tables, or with them at 020's shape.
 */
export function migrateSandbox(db: Database): void {
  const columns = (table: string) =>
    new Set((db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((c) => c.name));
  const accounts = columns('sbx_accounts');
  for (const [column, type] of accounts.size > 0 ? ACCOUNT_OPTIONS : []) {
    if (!accounts.has(column)) db.prepare(`ALTER TABLE sbx_accounts ADD COLUMN ${column} ${type}`).run();
  }
  const trustlines = columns('sbx_trustlines');
  if (trustlines.size > 0 && !trustlines.has('pos')) {
    db.prepare('ALTER TABLE sbx_trustlines ADD COLUMN pos INTEGER NOT NULL DEFAULT 0').run();
    db.prepare('UPDATE sbx_trustlines SET pos = rowid').run();
  }
  const operations = columns('sbx_operations');
  if (operations.size > 0 && !operations.has('is_payment')) {
    db.prepare('ALTER TABLE sbx_operations ADD COLUMN is_payment INTEGER NOT NULL DEFAULT 1').run();
  }
  const transactions = columns('sbx_transactions');
  if (transactions.size > 0 && !transactions.has('paging')) {
    db.prepare('ALTER TABLE sbx_transactions ADD COLUMN paging INTEGER').run();
    db.prepare('UPDATE sbx_transactions SET paging = (ledger << 32) | 4096').run();
    // a file this old has no sbx_tx_accounts yet: made here as 020 makes it, to be filled
    run(db, txAccountsTable(migrationTools('sqlite')));
    db.prepare(`INSERT OR IGNORE INTO sbx_tx_accounts (account, paging)
      SELECT a.account, t.paging FROM sbx_op_accounts a JOIN sbx_operations o ON o.id = a.op_id
      JOIN sbx_transactions t ON t.hash = o.tx_hash`).run();
  }
}

/**
 * The sandbox tables on a database the server's migrations may not have run on (tests build a
 * SandboxLedger over a bare SQLite database): an older file's upgrade, then migrations 020's and
 * 025's statements, which change nothing where they ran (IF NOT EXISTS). SandboxLedger calls it.
 */
export function ensureSandboxTables(db: Database): void {
  db.transaction(() => {
    migrateSandbox(db);
    for (const m of [sandboxLedger, sandboxPending]) for (const statement of m.up(migrationTools('sqlite'))) run(db, statement);
  })();
}
