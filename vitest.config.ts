import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './scripts/slow-first-sequencer.js';

// One project per package, each with its own vitest.config.ts; the server's suite and the
// cross-package suites run twice, on SQLite and on PostgreSQL (their vitest.postgres.config.ts).
export default defineConfig({
  test: {
    projects: ['packages/*', 'packages/server/vitest.postgres.config.ts', 'test', 'test/vitest.postgres.config.ts'],
    // Most of a file's time is waiting (ledger closes, HTTP, child processes, a browser), so two
    // files share two cores well: vitest's default of one worker fewer than the cores would run
    // them one at a time on a two-core machine.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: SlowFirstSequencer },
  },
});
