import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'server', include: ['test/**/*.test.ts'], testTimeout: 30_000,
    // a server's start (its spec compiled, its pool filled) in a beforeAll took over 10 s (vitest's
    // default) with both cores busy elsewhere
    hookTimeout: 60_000,
    // fails a file whose event loop stops, with its stack, instead of hanging the run
    setupFiles: ['test/helpers/hang-guard.ts'],
    // one throwaway PostgreSQL cluster for the run; each test makes its own database in it
    globalSetup: ['test/helpers/postgres-global.ts', 'test/helpers/sandbox-thread-global.ts'],
    // work polled for goes over HTTP, a database and ledger closes: 1 s (vitest's default) is too
    // short on two loaded cores
    expect: { poll: { timeout: 10_000 } } },
});
