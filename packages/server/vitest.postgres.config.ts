/**
 * The server's suite again, on PostgreSQL: every test that starts a server gets a fresh database
 * of the run's throwaway cluster (FUNDKIT_TEST_ENGINE=postgres, test/helpers/server.ts). Left out:
 * tests of SQLite itself (its files, WAL, crash-restarts of a file) and of code that touches no
 * database; the tests of the data layer cover both engines in the SQLite run already. The
 * three-process kill test runs here only.
 */
import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

export const SQLITE_OR_ENGINE_FREE = [
  // SQLite's own: checkpointer, file crash-restarts, legacy migrations, the process kill test on a file
  'test/db/checkpointer.test.ts', 'test/crash/**', 'test/db/migrations.test.ts', 'test/cluster/processes.test.ts', 'test/startup.test.ts',
  // both engines inside, whichever the run
  'test/db/migrations-source.test.ts', 'test/db/queries-postgres.test.ts', 'test/db/sql-executors.test.ts', 'test/db/server-postgres.test.ts',
  // no database: Horizon's REST mapping and stream, native keys, the contract checker itself
  'test/stellar-horizon/rest.test.ts', 'test/stellar/native-keypair.test.ts', 'test/contract-check.test.ts',
  // the status feed's reads are counted on a stand-in; its streams are tested over HTTP on both engines
  'test/status-feed.test.ts',
  // no database of the run's: network adapters against msw, configuration, the standalone sandbox
  // process and the operator's path on files of its own (the payment flow over the wire runs on both);
  // the sandbox's own tests are @fundkit/sandbox's (packages/sandbox/test)
  'test/stellar-rpc/**', 'test/stellar-horizon/ledgers.test.ts', 'test/stellar/networks.test.ts', 'test/over-the-wire/standalone-crash.test.ts',
];

export default mergeConfig(base, defineConfig({
  test: {
    name: 'server-postgres',
    env: { FUNDKIT_TEST_ENGINE: 'postgres' },
    exclude: ['**/node_modules/**', ...SQLITE_OR_ENGINE_FREE],
  },
}));
