import { defineConfig } from 'vitest/config';

// One project per package, each with its own vitest.config.ts; the server's suite and the
// cross-package suites run twice, on SQLite and on PostgreSQL (their vitest.postgres.config.ts).
export default defineConfig({
  test: {
    projects: ['packages/*', 'packages/server/vitest.postgres.config.ts', 'test', 'test/vitest.postgres.config.ts'],
  },
});
