import type { Migration } from './migration.js';

// The one Stellar network a database follows (stellar/followed-network.ts): its deposit accounts,
// treasury and follower cursor exist on that network only. The first server, `fundkit treasury`
// or sandbox to start on the database records it; one on another network refuses to start. One
// row (`id` is always 1), inserted if absent, so servers starting at once agree on the first.
// `first_ledger`/`first_ledger_hash` tell sandbox chains apart (they all share one passphrase);
// null for real networks, named by their passphrase (a reset testnet is caught by the follower).
export const migration: Migration = {
  version: 33,
  name: '033_followed_network',
  up(t) {
    return [
      t.schema.createTable('followed_network')
        .addColumn('id', t.int, (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('passphrase', 'text', (c) => c.notNull())
        .addColumn('first_ledger', t.int)
        .addColumn('first_ledger_hash', 'text')
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('recorded_at', 'text', (c) => c.notNull()),
    ];
  },
};
