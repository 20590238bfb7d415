/**
 * vitest globalSetup: the sandbox thread's entry, @fundkit/sandbox's built dist/thread.js (one
 * bundled file: a thread started from it loads one file instead of tsx transforming the
 * sandbox's modules in every test process), its path provided as `inject('sandboxThreadEntry')`.
 * The server imports the package's build the same way, so `pnpm build` comes first.
 */
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    sandboxThreadEntry: string;
  }
}

const SERVER = join(dirname(fileURLToPath(import.meta.url)), '../..');

export default function setup(project: TestProject): void {
  const entry = join(realpathSync(join(SERVER, 'node_modules/@fundkit/sandbox')), 'dist/thread.js');
  if (!existsSync(entry)) throw new Error(`${entry} is missing: build @fundkit/sandbox first (pnpm build)`);
  project.provide('sandboxThreadEntry', entry);
}
