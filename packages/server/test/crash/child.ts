/** A real server process (tsx, from source) that the crash tests kill with SIGKILL. FUNDKIT_CHILD_STDOUT=1 shows its logs. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const SERVER_DIR = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** The kernel's range for port-0 listeners and outgoing connections (Linux), else none known. */
function ephemeralRange(): [number, number] | null {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    return low && high ? [low, high] : null;
  } catch {
    return null;
  }
}

function bindable(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(null));
    server.listen(port, '127.0.0.1', () => {
      const bound = (server.address() as { port: number }).port;
      server.close(() => resolve(bound));
    });
  });
}

/**
 * A port for a child server to listen on, seconds later (a tsx start on a loaded machine). Taken
 * below the kernel's ephemeral range: a port from inside it is what every other test's `listen(0)`
 * and every outgoing connection draws from, so in that gap another file's server could take it and
 * answer for the child (a CI run read a "child" that was another test's server, gone a minute later).
 */
export async function freePort(): Promise<number> {
  const range = ephemeralRange();
  if (range && range[0] > 20_000) {
    for (let attempt = 0; attempt < 50; attempt++) {
      const port = 10_000 + Math.floor(Math.random() * (range[0] - 10_000));
      if (await bindable(port)) return port;
    }
  }
  return (await bindable(0))!;
}

/** Whether process `pid` holds the socket listening on `port` (Linux /proc); true where that cannot be read. */
function listensOn(pid: number, port: number): boolean {
  let inodes: Set<string>;
  try {
    const hex = port.toString(16).toUpperCase().padStart(4, '0');
    inodes = new Set(['tcp', 'tcp6'].flatMap((table) => {
      try {
        return readFileSync(`/proc/net/${table}`, 'utf8').split('\n').slice(1)
          .map((line) => line.trim().split(/\s+/))
          .filter((f) => f[1]?.endsWith(`:${hex}`) && f[3] === '0A')
          .map((f) => f[9]!);
      } catch {
        return [];
      }
    }));
    if (inodes.size === 0) return false;
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return inodes.has(/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1] ?? '');
      } catch {
        return false;
      }
    });
  } catch {
    return true;
  }
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
      // the answer must come from this child, not from whatever else took the port meanwhile
      // (if another holds it, the child's own listen fails and it exits, which the loop reports)
      if ((await fetch(`${url}/v1/assets`)).status > 0 && listensOn(child.pid!, port)) return { process: child, url, stderr };
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
