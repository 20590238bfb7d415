/**
 * Size budgets: deterministic, so they gate pnpm test (timings live in pnpm bench). The root
 * `pnpm test` builds first; a missing file fails loudly rather than passing by accident.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const budgets = JSON.parse(readFileSync(join(root, 'bench/budgets.json'), 'utf8')) as Record<string, { file: string; gzipBytes: number; target: number } | string>;

describe('size budgets (bench/budgets.json)', () => {
  for (const [name, budget] of Object.entries(budgets)) {
    if (typeof budget === 'string') continue;
    it(`${name}: ${budget.file} ≤ ${budget.gzipBytes} B gzip`, () => {
      // level 9: what a CDN serves; the same measure as pnpm bench
      const size = gzipSync(readFileSync(join(root, budget.file)), { level: 9 }).length;
      expect(size, `${budget.file} is ${size} B gzip`).toBeLessThanOrEqual(budget.gzipBytes);
    });
  }
});
