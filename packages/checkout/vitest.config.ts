import { defineConfig } from 'vitest/config';

export default defineConfig({
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  test: { name: 'checkout', include: ['test/**/*.test.{ts,tsx}'], environment: 'happy-dom' },
});
