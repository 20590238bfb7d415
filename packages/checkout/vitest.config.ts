import { defineConfig } from 'vitest/config';

export default defineConfig({
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  test: { name: 'checkout', include: ['test/**/*.test.{ts,tsx}'], environment: 'happy-dom' },
});
