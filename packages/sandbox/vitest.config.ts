import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'sandbox', include: ['test/**/*.test.ts'], testTimeout: 30_000, hookTimeout: 60_000,
    // ledger closes and HTTP on two loaded cores: 1 s (vitest's default) is too short
    expect: { poll: { timeout: 10_000 } } },
});
