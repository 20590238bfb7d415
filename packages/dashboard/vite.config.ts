import { defineConfig } from 'vite';

// Served by the reference server under /dashboard (see packages/server/src/http/dashboard.ts),
// so every asset URL carries that base.
export default defineConfig({
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  base: '/dashboard/',
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022' },
});
