#!/usr/bin/env node
/**
 * `vitest run` for `pnpm test`, with one narrow second chance. A test file's process has twice
 * frozen in CI in native code (a thread waiting on a lock, no JavaScript running) after every one
 * of its tests had passed: the shape of Node's own deadlock at shutdown (nodejs/node#54918, fixed
 * in later Node releases). The server's hang guard (packages/server/test/helpers/hang-guard.ts)
 * kills such a process after 120 s and names its file in FUNDKIT_HANG_REPORT; vitest then fails the
 * run on "Worker exited unexpectedly" although no test failed.
 *
 * Only then, when no test and no test file failed, those files are run once more, on their own,
 * and that run decides. Any failing test, or a freeze while tests run, fails as before.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'fundkit-vitest-'));
const hangs = join(dir, 'hangs.jsonl');
const results = join(dir, 'results.json');
const vitest = (args, extraEnv = {}) => spawnSync('vitest', ['run', ...args], {
  stdio: 'inherit', env: { ...process.env, ...extraEnv }, shell: process.platform === 'win32',
}).status ?? 1;

const args = process.argv.slice(2);
let status = vitest(['--reporter=default', '--reporter=json', `--outputFile.json=${results}`, ...args], { FUNDKIT_HANG_REPORT: hangs });

if (status !== 0 && existsSync(hangs) && existsSync(results)) {
  const summary = JSON.parse(readFileSync(results, 'utf8'));
  const files = [...new Set(readFileSync(hangs, 'utf8').trim().split('\n').map((line) => JSON.parse(line).file))];
  if (summary.numFailedTests === 0 && summary.numFailedTestSuites === 0 && files.length > 0) {
    console.log(`\n==> every test passed, but ${files.length} test file process(es) froze after their tests (see [hang-guard] above): running ${files.join(', ')} once more`);
    status = vitest(files);
  }
}
rmSync(dir, { recursive: true, force: true });
process.exit(status);
