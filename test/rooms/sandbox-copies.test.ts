/**
 * The sandbox imports nothing of the server (.dependency-cruiser.cjs), so the few modules both need
 * (amounts, assets, Horizon record shapes, result codes, native keypairs) are kept twice: the
 * sandbox's own in packages/sandbox/src/shared, the server's where its rooms want them. They are
 * the same source, line for line, but for the path of an import; this test keeps them so, and
 * says which file to bring along when one of a pair changes.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** the sandbox's copy → the server's file, and the import paths that differ between them */
const PAIRS: Array<{ sandbox: string; server: string; imports?: Record<string, string> }> = [
  { sandbox: 'shared/money.ts', server: 'lib/money.ts' },
  { sandbox: 'shared/assets.ts', server: 'stellar/assets.ts' },
  { sandbox: 'shared/keypair.ts', server: 'stellar/keypair.ts' },
  { sandbox: 'shared/horizon-types.ts', server: 'stellar/horizon-types.ts' },
  { sandbox: 'shared/one-at-a-time.ts', server: 'lib/one-at-a-time.ts' },
  { sandbox: 'shared/result-codes.ts', server: 'stellar/result-codes.ts', imports: { './types.js': './network.js' } },
];

const source = (path: string) => readFileSync(resolve(root, path), 'utf8');

describe("the sandbox's copies of the modules it shares with the server", () => {
  it.each(PAIRS)('packages/sandbox/src/$sandbox is packages/server/src/$server', ({ sandbox, server, imports = {} }) => {
    let copy = source(`packages/sandbox/src/${sandbox}`);
    for (const [ours, theirs] of Object.entries(imports)) copy = copy.replaceAll(`from '${ours}'`, `from '${theirs}'`);
    const message = `packages/sandbox/src/${sandbox} and packages/server/src/${server} differ: a change to one belongs in both`;
    expect(copy.split('\n'), message).toEqual(source(`packages/server/src/${server}`).split('\n'));
  });
});
