/** A real server process (tsx, from source) that the crash tests kill with SIGKILL. FUNDKIT_CHILD_STDOUT=1 shows its logs. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const SERVER_DIR = join(dirname(fileURLToPath(import.meta.url)), '../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface Child {
  process: ChildProcess;
  url: string;
  stderr: string[];
}

export async function startChild(env: Record<string, string>, port: number): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_DIR, env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', process.env.FUNDKIT_CHILD_STDOUT ? 'inherit' : 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr!.on('data', (chunk) => stderr.push(String(chunk)));
  // the log (LOG_LEVEL of the test's choosing) is kept with stderr, the last of it for a failure's message
  child.stdout?.on('data', (chunk) => {
    stderr.push(String(chunk));
    if (stderr.length > 200) stderr.splice(0, stderr.length - 200);
  });
  const url = `http://127.0.0.1:${port}`;
  // a tsx start takes seconds, ~20 s with several at once on two loaded cores, over 60 s once
  // beside a whole suite's heaviest files: a start is the tests' precondition, not what they measure
  const until = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${stderr.join('')}`);
    try {
      if ((await fetch(`${url}/v1/assets`)).status > 0) return { process: child, url, stderr };
    } catch {
      // not listening yet
    }
    if (Date.now() > until) {
      // not left behind: a process the test never got would hold its port and cores after it
      child.kill('SIGKILL');
      throw new Error(`server did not start: ${stderr.join('')}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function kill(child: Child, signal: NodeJS.Signals): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return;
  const exited = new Promise((resolve) => child.process.once('exit', resolve));
  child.process.kill(signal);
  await exited;
}
