import type { Migration } from './migration.js';

// The ledger follower's one cursor per network (pipeline/follower.ts): the last ledger whose
// payments are all processed. It replaces the cursor per deposit account (deposit_watch.cursor),
// which one Horizon stream per account needed.
export const migration: Migration = {
  version: 26,
  name: '026_network_cursors',
  up(t) {
    return [
      t.schema.createTable('network_cursors')
        .addColumn('network', 'text', (c) => c.primaryKey())
        .addColumn('ledger', t.int, (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull()),
    ];
  },
};
