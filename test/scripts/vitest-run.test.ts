/**
 * `scripts/vitest-run.mjs` (the README's test runner) started outside pnpm, where vitest is not on
 * PATH: it says how to start it rather than "the run wrote no verdict", and fails.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('scripts/vitest-run.mjs without vitest on PATH', () => {
  it('fails, naming the pnpm commands that run it', () => {
    // only Node's own directory on PATH: no node_modules/.bin
    const run = spawnSync(process.execPath, [join(root, 'scripts/vitest-run.mjs'), '--project', 'sandbox'], {
      cwd: root, encoding: 'utf8', env: { ...process.env, PATH: dirname(process.execPath) },
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('vitest is not on PATH');
    expect(run.stdout).toContain('pnpm exec node scripts/vitest-run.mjs');
  });
});
