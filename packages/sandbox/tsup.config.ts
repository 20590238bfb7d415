import { defineConfig } from 'tsup';

export default defineConfig({
  // index: the library; cli: the bin's; thread: the worker startSandboxThread runs (dist/thread.js, beside index.js)
  entry: { index: 'src/index.ts', cli: 'src/cli.ts', thread: 'src/thread-entry.ts' },
  format: ['esm'],
  dts: { entry: { index: 'src/index.ts' } },
  sourcemap: true,
  clean: true,
  target: 'node20',
  platform: 'node',
});
