// The hang guard's watcher (see hang-guard.ts). Runs on its own thread, so it still runs when the
// test file's thread is stuck; writes straight to fd 2, because a worker's process.stderr goes
// through the stuck thread.
const { workerData } = require('node:worker_threads');
const inspector = require('node:inspector');
const { appendFileSync, readdirSync, readFileSync, writeSync } = require('node:fs');
const { spawnSync } = require('node:child_process');

const { buffer, base, limitS, file } = workerData;
const beat = new Int32Array(buffer);

// x86-64 numbers of the calls a blocked thread is usually found in
const SYSCALLS = { 0: 'read', 1: 'write', 7: 'poll', 23: 'select', 72: 'fcntl', 74: 'fsync', 75: 'fdatasync', 202: 'futex', 232: 'epoll_wait', 270: 'pselect6', 281: 'epoll_pwait' };

/** Each thread of this process: its name, state and the system call it is in (Linux /proc), where native code cannot be paused. */
function threads() {
  try {
    return readdirSync(`/proc/${process.pid}/task`).map((tid) => {
      const read = (name) => { try { return readFileSync(`/proc/${process.pid}/task/${tid}/${name}`, 'utf8').trim(); } catch { return '?'; } };
      const state = read('stat').replace(/^.*\) /, '').split(' ')[0];
      const call = read('syscall').split(' ');
      return `    thread ${tid} ${read('comm')}${tid === String(process.pid) ? ' (main)' : ''}: state ${state}, syscall ${SYSCALLS[call[0]] ?? call[0]} ${call.slice(1, 4).join(' ')}`;
    }).join('\n');
  } catch (error) {
    return `    (threads unreadable: ${error})`;
  }
}

/**
 * Every thread's native stack, from gdb attached to this process, where gdb is installed: what a
 * thread blocked on a lock waits for, which neither the inspector nor /proc can tell.
 */
function nativeStacks() {
  const gdb = spawnSync('gdb', ['-p', String(process.pid), '-batch', '-nx', '-ex', 'thread apply all bt 14'], { encoding: 'utf8', timeout: 20_000 });
  if (gdb.error || !gdb.stdout) return '';
  const stacks = gdb.stdout.split('\n').filter((line) => /^(Thread |#)/.test(line) && !line.includes(' in ?? (')).join('\n');
  // nothing when gdb may not attach (ptrace restricted)
  return stacks ? `  native stacks (gdb):\n${stacks}\n` : '';
}

function die(message) {
  const afterTests = Atomics.load(beat, 1) === 1;
  const when = afterTests ? ' Every test of the file had run: the freeze is in what comes after them (the runner, Node\'s shutdown).' : '';
  const native = message.includes('outside JavaScript') ? nativeStacks() : '';
  writeSync(2, `\n[hang-guard] ${file}: the event loop has not turned for ${limitS} s.${when} ${message}\n${threads()}\n${native}`);
  // scripts/vitest-run.mjs runs such a file once more
  if (afterTests && process.env.FUNDKIT_HANG_REPORT) appendFileSync(process.env.FUNDKIT_HANG_REPORT, `${JSON.stringify({ file })}\n`);
  process.kill(process.pid, 'SIGKILL');
}

const watch = setInterval(() => {
  if (Math.floor(Date.now() / 1000) - base - Atomics.load(beat, 0) < limitS) return;
  clearInterval(watch);
  // Pause the stuck thread through the inspector and print where it is.
  const session = new inspector.Session();
  const urls = new Map();
  session.connectToMainThread();
  session.on('Debugger.scriptParsed', ({ params }) => urls.set(params.scriptId, params.url));
  const where = (f) => `    at ${f.functionName || '<anonymous>'} (${urls.get(f.scriptId ?? f.location.scriptId) || f.url || '?'}:${(f.lineNumber ?? f.location.lineNumber) + 1})`;
  let steps = 0;
  session.on('Debugger.paused', ({ params }) => {
    // Paused between microtasks, the stack holds only Node's internals: step into the next one.
    const ours = params.callFrames.some((f) => !/^(node:|$)/.test(urls.get(f.location.scriptId) || f.url || ''));
    if (!ours && steps++ < 200) return session.post('Debugger.stepInto');
    const lines = params.callFrames.slice(0, 40).map(where);
    // a loop of microtasks shows little on the stack: the async chain that led to it says more
    for (let trace = params.asyncStackTrace; trace && lines.length < 80; trace = trace.parent) {
      const frames = trace.callFrames.filter((f) => !/^node:/.test(urls.get(f.scriptId) || f.url || ''));
      if (frames.length > 0) lines.push(`  -- ${trace.description || 'async'} --`, ...frames.slice(0, 20).map(where));
    }
    die(`It is running JavaScript (a loop that never yields?):\n${lines.join('\n')}`);
  });
  session.post('Debugger.enable', () =>
    session.post('Debugger.setAsyncCallStackDepth', { maxDepth: 32 }, () => session.post('Debugger.pause')));
  // a thread blocked in native code (a lock, a synchronous wait) never reaches the pause
  setTimeout(() => die('It is blocked outside JavaScript (a synchronous wait or lock).'), 10_000);
}, 2_000);
