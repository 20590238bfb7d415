import { defineConfig } from 'vitest/config';

// One project per package, each with its own vitest.config.ts; the server's suite runs twice,
// on SQLite (packages/server) and on PostgreSQL (its vitest.postgres.config.ts).
export default defineConfig({
  test: {
    projects: ['packages/*', 'packages/server/vitest.postgres.config.ts', 'test'],
  },
});
