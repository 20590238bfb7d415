export type Environment = 'sandbox' | 'production';

/** Reads an environment variable where one exists (Node, Bun, Deno with compat) without importing `node:process`. */
export function readEnv(name: string): string | undefined {
  const proc = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  const value = proc?.env?.[name];
  return value === undefined || value === '' ? undefined : value.trim();
}

/** The environment a key belongs to by its prefix, or undefined for other credentials (account session, operator key). */
export function environmentOfKey(apiKey: string | undefined): Environment | undefined {
  if (!apiKey) return undefined;
  if (/^(sk|pk)_live_/.test(apiKey)) return 'production';
  if (/^(sk|pk)_test_/.test(apiKey)) return 'sandbox';
  return undefined;
}
