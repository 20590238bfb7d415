#!/usr/bin/env node
/**
 * `vitest run` for `pnpm test`, with one narrow second chance and two checks vitest's exit code
 * does not make.
 *
 * The second chance: a test file's process has twice frozen in CI in native code (a thread
 * waiting on a lock, no JavaScript running) after every one of its tests had passed: the shape of
 * Node's own deadlock at shutdown (nodejs/node#54918, fixed in later Node releases). The server's
 * hang guard (packages/server/test/helpers/hang-guard.ts) kills such a process after 120 s and
 * names its file in FUNDKIT_HANG_REPORT; vitest then fails the run on "Worker exited unexpectedly"
 * although no test failed. Only then are those files run once more, on their own, and that run
 * decides. "Only then" is read from the run's verdict (scripts/run-verdict-reporter.mjs), not from
 * vitest's JSON counts: every test outside the frozen files passed or was skipped (none left
 * pending by a worker killed mid-file), no other file failed, and the only unhandled errors are
 * the frozen workers' exits (an error thrown after a file's tests is never forgiven).
 *
 * The checks: every project the run selected passed at least one test (an empty `server-postgres`
 * or `e2e-postgres` project, or one whose every test skipped, fails the run), and a run whose
 * verdict is missing fails.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const reporter = join(dirname(fileURLToPath(import.meta.url)), 'run-verdict-reporter.mjs');
const dir = mkdtempSync(join(tmpdir(), 'fundkit-vitest-'));
const hangs = join(dir, 'hangs.jsonl');

/** One vitest run; its exit status and its verdict (null when the reporter wrote none). */
function vitest(args, name, extraEnv = {}) {
  const verdictFile = join(dir, `${name}.json`);
  const run = spawnSync('vitest', ['run', '--reporter=default', `--reporter=${reporter}`, ...args], {
    stdio: 'inherit', env: { ...process.env, FUNDKIT_RUN_VERDICT: verdictFile, ...extraEnv }, shell: process.platform === 'win32',
  });
  if (run.error?.code === 'ENOENT') {
    console.log('\n==> vitest is not on PATH: run this through pnpm (`pnpm test`, or `pnpm exec node scripts/vitest-run.mjs …`)');
    process.exit(1);
  }
  const status = run.status ?? 1;
  return { status, verdict: existsSync(verdictFile) ? JSON.parse(readFileSync(verdictFile, 'utf8')) : null };
}

/** Why the run cannot pass whatever vitest said, or null. */
function missing(verdict) {
  if (!verdict) return 'the run wrote no verdict (vitest stopped before its end)';
  if (verdict.filtered) return null;
  const empty = verdict.projects.filter((p) => !(verdict.passedPerProject[p] > 0));
  return empty.length ? `no test passed in the project(s) ${empty.join(', ')}: a project that runs nothing tests nothing` : null;
}

/** Why the frozen files may not simply be run again, or null when they may. */
function notForgivable(verdict, frozen) {
  const others = (file) => !frozen.includes(file);
  const tests = verdict.notPassed.filter((t) => others(t.file) || t.state !== 'pending');
  if (tests.length) return `${tests.length} test(s) did not pass: ${tests.slice(0, 5).map((t) => `${t.project} › ${t.test} (${t.state})`).join('; ')}`;
  const files = verdict.failedModules.filter((m) => others(m.file));
  if (files.length) return `test file(s) failed: ${files.map((m) => `${m.project} › ${m.file}`).join(', ')}`;
  const exits = verdict.unhandled.filter((e) => e.cause === 'Worker exited unexpectedly');
  if (exits.length !== verdict.unhandled.length) return `${verdict.unhandled.length - exits.length} unhandled error(s): ${verdict.unhandled.filter((e) => !exits.includes(e)).map((e) => e.message).join('; ')}`;
  if (exits.length > frozen.length) return `${exits.length} workers exited, ${frozen.length} of them frozen after their tests`;
  return null;
}

const args = process.argv.slice(2);
let { status, verdict } = vitest(args, 'run', { FUNDKIT_HANG_REPORT: hangs });
const gap = missing(verdict);

if (gap) {
  console.log(`\n==> the run fails: ${gap}`);
  status = 1;
} else if (status !== 0 && existsSync(hangs)) {
  const frozen = [...new Set(readFileSync(hangs, 'utf8').trim().split('\n').map((line) => JSON.parse(line).file))];
  const why = notForgivable(verdict, frozen);
  if (why) {
    console.log(`\n==> ${frozen.length} test file process(es) froze after their tests, but they are not run again: ${why}`);
  } else {
    const projects = [...new Set(verdict.notPassed.map((t) => t.project))].flatMap((p) => ['--project', p]);
    console.log(`\n==> every other test passed, but ${frozen.length} test file process(es) froze after their tests (see [hang-guard] above): running ${frozen.join(', ')} once more`);
    const again = vitest([...projects, ...frozen], 'rerun');
    status = again.status !== 0 ? again.status : again.verdict ? 0 : 1;
  }
}
rmSync(dir, { recursive: true, force: true });
process.exit(status);
