/**
 * vitest globalSetup: the sandbox thread's entry (src/sandbox-thread.ts) bundled once for the run,
 * its path provided as `inject('sandboxThreadEntry')`. A thread started from the bundle loads one
 * file instead of tsx transforming the sandbox's modules in every test process: half a second
 * less for each test file that starts a server.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    sandboxThreadEntry: string;
  }
}

const SERVER = join(dirname(fileURLToPath(import.meta.url)), '../..');

export default async function setup(project: TestProject): Promise<() => void> {
  // inside the package, so the bundle's imports of its dependencies resolve as the source's do
  const cache = join(SERVER, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const outDir = mkdtempSync(join(cache, 'fundkit-sandbox-thread-'));
  await build({
    entry: { 'sandbox-thread': join(SERVER, 'src/sandbox-thread.ts') }, outDir, format: ['esm'], platform: 'node', target: 'node20',
    config: false, silent: true, splitting: false, sourcemap: false, dts: false, clean: false,
    esbuildOptions: (options) => { options.packages = 'external'; },
  });
  project.provide('sandboxThreadEntry', join(outDir, 'sandbox-thread.js'));
  return () => rmSync(outDir, { recursive: true, force: true });
}
