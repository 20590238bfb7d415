import { defineConfig } from 'vitest/config';

// One project per package, each with its own vitest.config.ts.
export default defineConfig({
  test: {
    projects: ['packages/*', 'test'],
  },
});
