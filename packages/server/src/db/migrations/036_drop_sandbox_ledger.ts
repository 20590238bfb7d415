import type { Migration } from './migration.js';

// The server's database holds no sandbox chain any more (issue 40, item 2): the sandbox runs beside
// the server with its own file, reached over HTTP. 020 and 025 keep their place (databases record
// them as applied, and a fresh one runs them), and this drops what they made. The runner refuses
// first when the tables hold a chain (db/legacy-sandbox.ts), so only empty tables are dropped.
const TABLES = [
  'sbx_pending', 'sbx_ledgers', 'sbx_effects', 'sbx_tx_accounts', 'sbx_op_accounts', 'sbx_operations', 'sbx_transactions',
  'sbx_signers', 'sbx_offers', 'sbx_trustlines', 'sbx_accounts', 'sbx_keys', 'sbx_state',
];

export const migration: Migration = {
  version: 36,
  name: '036_drop_sandbox_ledger',
  up(t) {
    return TABLES.map((table) => t.schema.dropTable(table).ifExists());
  },
};
