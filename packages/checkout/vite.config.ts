import { defineConfig, type UserConfig } from 'vite';

/**
 * Three builds, one per mode (package.json "build" runs them in turn):
 * - default: ESM for bundlers (dist/esm), dependencies left external, the wallet a lazy chunk;
 * - iife: the <script> core (dist/iife/fundkit-checkout.js), everything inlined;
 * - wallet: the lazy wallet chunk for the IIFE (dist/iife/fundkit-checkout-wallet.js), fetched
 *   by the core as a sibling script only when the payer picks "pay with a browser wallet".
 */
const jsx = { oxc: { jsx: { runtime: 'automatic' as const, importSource: 'preact' } } };
// the wallet's Stellar SDK expects these Node globals in some code paths
const define = { 'process.env.NODE_ENV': '"production"', global: 'globalThis' };

function esm(): UserConfig {
  return {
    ...jsx,
    build: {
      outDir: 'dist/esm',
      emptyOutDir: true,
      target: 'es2022',
      lib: { entry: 'src/entries/esm.ts', formats: ['es'], fileName: () => 'index.js' },
      rolldownOptions: { external: [/^preact/, 'uqr', /^@stellar\//] },
    },
  };
}

function iife(entry: string, fileName: string, name: string, empty: boolean): UserConfig {
  return {
    ...jsx,
    define,
    build: {
      outDir: 'dist/iife',
      emptyOutDir: empty,
      target: 'es2022',
      lib: { entry, formats: ['iife'], name, fileName: () => fileName },
    },
  };
}

export default defineConfig(({ mode }) => {
  if (mode === 'iife') return iife('src/entries/iife.ts', 'fundkit-checkout.js', 'FundkitCheckout', true);
  if (mode === 'wallet') return iife('src/entries/wallet-iife.ts', 'fundkit-checkout-wallet.js', 'FundkitCheckoutWalletChunk', false);
  return esm();
});
