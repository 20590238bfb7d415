import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'e2e', include: ['**/*.test.ts'], exclude: ['**/node_modules/**'], testTimeout: 60_000, hookTimeout: 60_000,
    // fails a file whose event loop stops, with its stack, instead of hanging the run
    setupFiles: ['../packages/server/test/helpers/hang-guard.ts'], globalSetup: ['../packages/server/test/helpers/sandbox-thread-global.ts'] },
});
