import type { Migration } from './migration.js';

// A webhook delivery's claim names the server that holds it: a claim of a server whose heartbeat
// has stopped (migration 021) is taken over then, instead of when its lease runs out (30 s).
export const migration: Migration = {
  version: 23,
  name: '023_delivery_claims',
  up(t) {
    return [t.schema.alterTable('webhook_deliveries').addColumn('claimed_by', 'text')];
  },
};
