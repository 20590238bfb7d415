import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The integration test runs the reference server from source, so it needs no build first.
  resolve: { alias: { '@fundkit/server': fileURLToPath(new URL('../server/src/index.ts', import.meta.url)) } },
  test: { name: 'sdk', include: ['test/**/*.test.ts'], testTimeout: 30_000, hookTimeout: 60_000 },
});
