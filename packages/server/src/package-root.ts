import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package root, found by walking up from this module: the same code runs from src/ (tests,
 * tsx) and from the bundled dist/ (the published bin), so fixed relative paths would break one.
 */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === '@fundkit/server') return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the @fundkit/server package root');
    dir = parent;
  }
}

/** The first existing path among candidates relative to the package root. */
export function resolveAsset(candidates: string[]): string {
  const root = packageRoot();
  for (const candidate of candidates) {
    const path = join(root, candidate);
    if (existsSync(path)) return path;
  }
  throw new Error(`none of ${candidates.join(', ')} exists under ${root}`);
}
