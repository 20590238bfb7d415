/** The README's runnable example (examples/pay-usdc.mjs) runs as written, on the build (`pnpm build` first). */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const PACKAGE = join(import.meta.dirname, '..');

it('examples/pay-usdc.mjs pays 12.5 USDC and reads it back over Horizon and Stellar RPC', () => {
  expect(existsSync(join(PACKAGE, 'dist/index.js')), 'packages/sandbox/dist: run pnpm build').toBe(true);
  const run = spawnSync(process.execPath, ['examples/pay-usdc.mjs'], { cwd: PACKAGE, encoding: 'utf8', timeout: 60_000 });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  expect(run.stdout).toMatch(/^sandbox up in \d+ ms: Horizon http:\/\/127\.0\.0\.1:\d+, RPC http:\/\/127\.0\.0\.1:\d+\/rpc$/m);
  expect(run.stdout).toMatch(/^Horizon: 12\.5000000 USDC from G/m);
  expect(run.stdout).toMatch(/^Stellar RPC: getTransaction SUCCESS in ledger \d+$/m);
  expect(run.stdout).toContain('bob holds 12.5000000 USDC');
});
