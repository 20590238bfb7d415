import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * FUNDKIT_API_KEY from the environment; else the sandbox keys the reference server saved when
 * `pnpm start` ran in this clone (`.fundkit/sandbox-keys.json`, found by walking up).
 */
export function loadConfig(env = process.env) {
  const saved = findSavedKeys();
  const apiKey = env.FUNDKIT_API_KEY ?? saved?.secret_keys?.[0];
  if (!apiKey) {
    throw new Error('Set FUNDKIT_API_KEY (sk_test_…), or run `pnpm start` at the repository root first: it saves sandbox keys in .fundkit/.');
  }
  const port = Number(env.PORT ?? 3000);
  return {
    apiKey,
    apiBase: (env.FUNDKIT_API_BASE ?? 'http://localhost:4010').replace(/\/+$/, ''),
    port,
    // where the reference server can reach this app (for webhooks)
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${port}`,
  };
}

function findSavedKeys() {
  for (let dir = resolve(process.cwd()); ; dir = dirname(dir)) {
    const file = join(dir, '.fundkit', 'sandbox-keys.json');
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')).applications?.[0];
    if (dirname(dir) === dir) return undefined;
  }
}
