import { defineConfig } from 'vitest/config';

export default defineConfig({
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  test: { name: 'dashboard', include: ['test/**/*.test.{ts,tsx}'], environment: 'happy-dom' },
});
