import { cpSync } from 'node:fs';
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/main.ts', 'src/cli/index.ts', 'src/key-thread.ts'],
  format: ['esm'],
  dts: { entry: 'src/index.ts' },
  sourcemap: true,
  clean: true,
  target: 'node20',
  platform: 'node',
  // the published bin reads the spec next to the bundle (src/package-root.ts); migrations are code
  async onSuccess() {
    cpSync('../../spec/openapi.yaml', 'dist/openapi.yaml');
  },
});
