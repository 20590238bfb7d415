import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', 'src');
/** Only the `@fundkit/webhooks/node` entry may reach Node built-ins. */
const NODE_ONLY = new Set(['node.ts', 'crypto/node-crypto-provider.ts']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

describe('the default entry is runtime-neutral', () => {
  const files = sourceFiles(SRC).map((file) => ({ path: relative(SRC, file), text: readFileSync(file, 'utf8') }));

  it('imports no node: module outside the node entry', () => {
    const offenders = files.filter((file) => !NODE_ONLY.has(file.path) && /from ['"]node:/.test(file.text));
    expect(offenders.map((file) => file.path)).toEqual([]);
  });

  it('imports the Node crypto provider only from the node entry', () => {
    const importers = files.filter((file) => file.text.includes('node-crypto-provider'));
    expect(importers.map((file) => file.path)).toEqual(['node.ts']);
  });

  it('imports nothing from express at runtime', () => {
    const runtimeExpress = files.filter((file) => /^import (?!type)[^;]*from ['"]express['"]/m.test(file.text));
    expect(runtimeExpress).toEqual([]);
  });
});
