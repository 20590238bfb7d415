import { defineConfig } from 'tsup';

export default defineConfig({
  // `index` is runtime-neutral; `node` and the `*.node` entries (package.json's "node" condition)
  // import node:crypto; `express` needs no express at runtime.
  entry: {
    index: 'src/index.ts', express: 'src/express.ts', node: 'src/node.ts',
    'index.node': 'src/index.node.ts', 'express.node': 'src/express.node.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
  platform: 'neutral',
  external: [/^node:/],
  // Shared chunks also in CJS, so WebhookVerificationError is one class across the entries.
  splitting: true,
});
