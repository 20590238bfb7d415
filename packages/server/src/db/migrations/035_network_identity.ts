import type { Migration } from './migration.js';

// The one network the database follows (issue 40, item 4; pipeline/network-identity.ts): its
// passphrase and an identity the network gives itself (the passphrase of a real network; the
// hash of a sandbox chain's oldest ledger; `in-process` for the chain kept in this database).
// One row (id 1), written by the first server or command to reach the network, read by every
// later one: a server on another network refuses to start instead of watching a chain its
// deposit accounts are not on.
export const migration: Migration = {
  version: 35,
  name: '035_network_identity',
  up(t) {
    return [
      t.schema.createTable('network_identity')
        .addColumn('id', t.int, (c) => c.primaryKey())
        .addColumn('passphrase', 'text', (c) => c.notNull())
        .addColumn('identity', 'text', (c) => c.notNull())
        // how the first server reached it, for the refusal's message (the sandbox thread, a URL, …)
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('recorded_at', 'text', (c) => c.notNull()),
    ];
  },
};
