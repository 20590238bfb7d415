import type { Migration } from './migration.js';

// One counter per kind of cached row (resources/applications/freshness.ts): API keys and
// applications are cached on each server, and every change to them (revocation, exposure,
// deactivation, a new settlement address) bumps 'credentials' in its own transaction. Each server
// reads the counter at most every 250 ms and drops its caches when it has moved, so a change made
// on one server holds on every server of the database within a second.
export const migration: Migration = {
  version: 27,
  name: '027_cache_generations',
  up(t) {
    return [
      t.schema.createTable('cache_generations')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('generation', t.int, (c) => c.notNull()),
      t.db.insertInto('cache_generations').values({ name: 'credentials', generation: 0 }),
    ];
  },
};
