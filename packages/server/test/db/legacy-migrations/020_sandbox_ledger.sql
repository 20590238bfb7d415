-- The sandbox ledger's tables as an older server made them (stellar/sandbox/schema.ts before
-- migration 020: its CREATE TABLEs, then the columns it added to them), with trustlines' `pos`
-- (migrateSandbox adds it to such a file).
CREATE TABLE IF NOT EXISTS sbx_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sbx_keys (
   role TEXT PRIMARY KEY, public_key TEXT NOT NULL, secret TEXT);
CREATE TABLE IF NOT EXISTS sbx_accounts (
   id TEXT PRIMARY KEY, balance TEXT NOT NULL, seq TEXT NOT NULL,
   subentries INTEGER NOT NULL DEFAULT 0, num_sponsoring INTEGER NOT NULL DEFAULT 0,
   num_sponsored INTEGER NOT NULL DEFAULT 0, sponsor TEXT,
   last_modified_ledger INTEGER NOT NULL, seq_ledger INTEGER NOT NULL, seq_time INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS sbx_trustlines (
   account TEXT NOT NULL, asset TEXT NOT NULL, balance TEXT NOT NULL, lim TEXT NOT NULL,
   sponsor TEXT, last_modified_ledger INTEGER NOT NULL, PRIMARY KEY (account, asset));
CREATE TABLE IF NOT EXISTS sbx_offers (
   id INTEGER PRIMARY KEY AUTOINCREMENT, seller TEXT NOT NULL, selling TEXT NOT NULL,
   buying TEXT NOT NULL, amount TEXT NOT NULL, price_n TEXT NOT NULL, price_d TEXT NOT NULL,
   last_modified_ledger INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS sbx_offers_book ON sbx_offers (selling, buying);
CREATE TABLE IF NOT EXISTS sbx_signers (
   account TEXT NOT NULL, key TEXT NOT NULL, weight INTEGER NOT NULL, sponsor TEXT,
   PRIMARY KEY (account, key));
CREATE INDEX IF NOT EXISTS sbx_signers_key ON sbx_signers (key);
CREATE TABLE IF NOT EXISTS sbx_transactions (
   hash TEXT PRIMARY KEY, ledger INTEGER NOT NULL, successful INTEGER NOT NULL,
   resource TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sbx_operations (
   id INTEGER PRIMARY KEY, tx_hash TEXT NOT NULL, successful INTEGER NOT NULL,
   record TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sbx_op_accounts (
   account TEXT NOT NULL, op_id INTEGER NOT NULL, PRIMARY KEY (account, op_id));
CREATE TABLE IF NOT EXISTS sbx_tx_accounts (
   account TEXT NOT NULL, paging INTEGER NOT NULL, PRIMARY KEY (account, paging));
CREATE TABLE IF NOT EXISTS sbx_effects (
   op_id INTEGER NOT NULL, idx INTEGER NOT NULL, account TEXT NOT NULL, tx_hash TEXT NOT NULL,
   record TEXT NOT NULL, PRIMARY KEY (op_id, idx));
CREATE INDEX IF NOT EXISTS sbx_effects_account ON sbx_effects (account, op_id, idx);
CREATE INDEX IF NOT EXISTS sbx_effects_tx ON sbx_effects (tx_hash);
CREATE TABLE IF NOT EXISTS sbx_ledgers (
   seq INTEGER PRIMARY KEY, hash TEXT NOT NULL, prev_hash TEXT NOT NULL, closed_at TEXT NOT NULL,
   header_xdr TEXT NOT NULL, tx_ok INTEGER NOT NULL DEFAULT 0, tx_failed INTEGER NOT NULL DEFAULT 0,
   ops INTEGER NOT NULL DEFAULT 0, tx_set_ops INTEGER NOT NULL DEFAULT 0, fees TEXT NOT NULL DEFAULT '0');
ALTER TABLE sbx_accounts ADD COLUMN master_weight INTEGER NOT NULL DEFAULT 1;
ALTER TABLE sbx_accounts ADD COLUMN low_threshold INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sbx_accounts ADD COLUMN med_threshold INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sbx_accounts ADD COLUMN high_threshold INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sbx_accounts ADD COLUMN flags INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sbx_accounts ADD COLUMN home_domain TEXT NOT NULL DEFAULT '';
ALTER TABLE sbx_accounts ADD COLUMN inflation_dest TEXT;
ALTER TABLE sbx_operations ADD COLUMN is_payment INTEGER NOT NULL DEFAULT 1;
ALTER TABLE sbx_transactions ADD COLUMN paging INTEGER;
CREATE INDEX IF NOT EXISTS sbx_transactions_paging ON sbx_transactions (paging);
CREATE INDEX IF NOT EXISTS sbx_operations_tx ON sbx_operations (tx_hash);
ALTER TABLE sbx_trustlines ADD COLUMN pos INTEGER NOT NULL DEFAULT 0;
