import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './scripts/slow-first-sequencer.js';

// One project per package, each with its own vitest.config.ts; the server's suite and the
// cross-package suites run twice, on SQLite and on PostgreSQL (their vitest.postgres.config.ts).
// FUNDKIT_TEST_ENGINES=sqlite leaves the PostgreSQL half out (a machine without PostgreSQL; CI's
// second Node, whose PostgreSQL half the first Node ran).
const sqliteOnly = process.env.FUNDKIT_TEST_ENGINES === 'sqlite';
if (process.env.FUNDKIT_TEST_ENGINES && !sqliteOnly) {
  throw new Error(`FUNDKIT_TEST_ENGINES=${process.env.FUNDKIT_TEST_ENGINES}: the one value it takes is sqlite (unset runs both engines)`);
}
const postgres = ['packages/server/vitest.postgres.config.ts', 'test/vitest.postgres.config.ts'];

export default defineConfig({
  test: {
    projects: ['packages/*', 'test', ...(sqliteOnly ? [] : postgres)],
    // Most of a file's time is waiting (ledger closes, HTTP, child processes, a browser), so two
    // files share two cores well: vitest's default of one worker fewer than the cores would run
    // them one at a time on a two-core machine.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: SlowFirstSequencer },
  },
});
