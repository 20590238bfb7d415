import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { BootstrapFile } from './bootstrap.js';

export interface SandboxKeys {
  secretKey: string;
  publishableKey: string | null;
  /** the file they were read from */
  path: string;
}

/** The keys file ensureSandboxApplication writes on a first start (`<dataDir>/sandbox-keys.json`). */
export function readSandboxKeys(path: string): SandboxKeys | null {
  if (!existsSync(path)) return null;
  try {
    const app = (JSON.parse(readFileSync(path, 'utf8')) as BootstrapFile).applications[0];
    const secretKey = app?.secret_keys?.find((k) => k.startsWith('sk_test_'));
    return secretKey ? { secretKey, publishableKey: app?.publishable_keys?.find((k) => k.startsWith('pk_test_')) ?? null, path } : null;
  } catch {
    return null;
  }
}

/**
 * Finds the keys a local `pnpm start` saved: FUNDKIT_DATA_DIR if set, else `.fundkit/` in the
 * working directory or any parent (examples and the CLI run from sub-folders of the clone).
 */
export function findSandboxKeys(env: Record<string, string | undefined> = process.env, cwd = process.cwd()): SandboxKeys | null {
  if (env.FUNDKIT_DATA_DIR) return readSandboxKeys(join(resolve(cwd, env.FUNDKIT_DATA_DIR), 'sandbox-keys.json'));
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const found = readSandboxKeys(join(dir, '.fundkit', 'sandbox-keys.json'));
    if (found || dirname(dir) === dir) return found;
  }
}

/** The sandbox secret key the /docs page prefills (a local developer console; test keys only). */
export function sandboxDocsKey(dataDir: string): string | null {
  return readSandboxKeys(join(dataDir, 'sandbox-keys.json'))?.secretKey ?? null;
}
