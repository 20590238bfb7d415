import type { Migration } from './migration.js';

// Several server processes on one database (issue 16). Each process is a row it keeps alive with
// a heartbeat; what a process holds (an idempotency key's running request) names it as owner,
// and is taken over once the owner's heartbeat is stale: a killed process's claims free
// themselves, and a process starting no longer frees the claims of the others still running.
// Rate-limit buckets live here too, so a credential's limit is one limit whichever process
// serves it (tokens in thousandths, exact in integers; refilled_at in epoch milliseconds).
export const migration: Migration = {
  version: 21,
  name: '021_server_instances',
  up(t) {
    return [
      t.schema.createTable('server_instances')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('host', 'text', (c) => c.notNull())
        .addColumn('pid', t.int, (c) => c.notNull())
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('heartbeat_at', 'text', (c) => c.notNull()),
      t.schema.alterTable('idempotency_keys').addColumn('owner', 'text'),
      t.schema.createTable('rate_limit_buckets')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('milli_tokens', t.int, (c) => c.notNull())
        .addColumn('refilled_at', t.int, (c) => c.notNull()),
    ];
  },
};
