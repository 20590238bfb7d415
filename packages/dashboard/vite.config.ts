import { defineConfig } from 'vite';

// Served by the reference server under /dashboard (see packages/server/src/http/dashboard.ts),
// so every asset URL carries that base. Fixed file names (no hash) so the size budget in
// bench/budgets.json can name the file; the server serves them with no-cache instead.
export default defineConfig({
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  base: '/dashboard/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    rolldownOptions: { output: { entryFileNames: 'assets/dashboard.js', chunkFileNames: 'assets/[name].js', assetFileNames: 'assets/dashboard[extname]' } },
  },
});
