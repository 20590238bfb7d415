import type { Migration } from './migration.js';

// Counters of rate-limiter-flexible (sign-in failures, sign-ups, email verifications), one row per
// key, shared by every server of the database so a limit holds whichever server a client reaches.
// The columns are the ones the library's RateLimiterPostgres and RateLimiterSQLite create
// (key, points, expire in epoch ms; 64-bit integers on both engines); the table is made here, under the migration lock, rather
// than by each server at start-up (two servers creating it at once race on PostgreSQL).
export const migration: Migration = {
  version: 31,
  name: '031_rate_limits',
  up(t) {
    return [
      t.schema.createTable('rate_limits')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('points', t.int, (c) => c.notNull().defaultTo(0))
        .addColumn('expire', t.int),
    ];
  },
};
