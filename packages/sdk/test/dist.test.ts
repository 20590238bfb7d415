import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const dist = new URL('../dist/', import.meta.url);
const built = existsSync(new URL('index.cjs', dist)) && existsSync(new URL('index.js', dist));

// `pnpm test` at the root builds before it tests; a bare vitest run without a build skips these.
describe.skipIf(!built)('published build', () => {
  it('require() gives a working client (CJS interop with openapi-fetch)', () => {
    const sdk = createRequire(import.meta.url)('../dist/index.cjs') as typeof import('../src/index.js');
    const fk = new sdk.Fundkit({ apiKey: 'sk_test_abc' });
    expect(fk.environment).toBe('sandbox');
    expect(typeof fk.raw.GET).toBe('function');
    expect(sdk.default).toBe(sdk.Fundkit);
  });

  it('import gives a working client', async () => {
    const sdk = (await import(new URL('index.js', dist).href)) as typeof import('../src/index.js');
    expect(new sdk.Fundkit({ apiKey: 'sk_live_abc' }).baseUrl).toBe('https://api.fundkit.dev');
  });
});
