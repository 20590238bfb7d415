import type { Migration } from './migration.js';

// Work that one server at a time must do (the payment pipeline: observing deposit accounts,
// confirming, settling, paying refunds out, the deposit pool) is held as a lease, a row naming
// its server. The lease is the holder's for as long as its heartbeat is recent
// (server_instances, migration 021); then any other server takes it over.
export const migration: Migration = {
  version: 22,
  name: '022_leases',
  up(t) {
    return [
      t.schema.createTable('leases')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('acquired_at', 'text', (c) => c.notNull()),
    ];
  },
};
