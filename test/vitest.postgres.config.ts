/**
 * The cross-package suites again, on PostgreSQL: every server they start (startTestServer) gets a
 * fresh database of the run's throwaway cluster, as the server's own suite does in
 * packages/server/vitest.postgres.config.ts. So a behaviour that differs between the engines fails
 * an end-to-end, reliability, browser or example test, not only a unit of the server (issue 26).
 * Left out: the checks of the spec, of bundle sizes and of the rooms' imports, which start no server.
 */
import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

export default mergeConfig(base, defineConfig({
  test: {
    name: 'e2e-postgres',
    env: { FUNDKIT_TEST_ENGINE: 'postgres' },
    globalSetup: ['../packages/server/test/helpers/postgres-global.ts'],
    exclude: ['**/node_modules/**', 'contract/**', 'size/**', 'rooms/**'],
  },
}));
