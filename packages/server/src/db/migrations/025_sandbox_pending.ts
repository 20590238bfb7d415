import { sql } from 'kysely';
import type { Migration } from './migration.js';

// The clocked sandbox ledger's transaction queue (@fundkit/sandbox's clock.ts): in the database, so
// servers sharing one database share one network. A transaction waits here from its admission to
// the close that takes it (`ledger` null), at most one per source account; then its outcome stays
// a while for the submit waiting on it, whichever server that is. IF NOT EXISTS: a SandboxLedger
// over a bare SQLite database makes its tables itself (sandbox/schema.ts).
// Dropped by 036 with the in-process sandbox; kept as databases applied it.
export const migration: Migration = {
  version: 25,
  name: '025_sandbox_pending',
  up(t) {
    return [
      t.schema.createTable('sbx_pending').ifNotExists()
        .addColumn('id', t.int, (c) => t.identity(c))
        .addColumn('hash', 'text', (c) => c.notNull().unique())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('envelope_xdr', 'text', (c) => c.notNull())
        .addColumn('ops', t.int, (c) => c.notNull())
        .addColumn('ledger', t.int)
        .addColumn('outcome', 'text'),
      t.schema.createIndex('sbx_pending_source').ifNotExists().on('sbx_pending').column('source').unique()
        .where(sql.ref('ledger'), 'is', null),
      t.schema.createIndex('sbx_pending_ledger').ifNotExists().on('sbx_pending').column('ledger'),
    ];
  },
};
