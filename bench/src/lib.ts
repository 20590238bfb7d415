/** Shared bench helpers: statistics, machine facts, child processes, autocannon. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
/** runs per figure (the median is reported); BENCH_RUNS/BENCH_SECONDS shorten a dev run */
export const RUNS = Math.max(3, Number(process.env.BENCH_RUNS ?? 3));
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
export const CONNECTIONS = 10;

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export const gzSize = (file: string): number => gzipSync(readFileSync(file), { level: 9 }).length;

export function machine(): Record<string, string> {
  return {
    cpu: cpus()[0]?.model ?? 'unknown', cores: String(cpus().length),
    memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB`, node: process.version, date: new Date().toISOString(),
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface Child { process: ChildProcess; url: string; output: string[]; stop(): Promise<void> }

/** Starts a server process and waits until `probe` answers anything over HTTP. */
export async function startChild(command: string, args: string[], env: Record<string, string>, port: number, probe = '/'): Promise<Child> {
  const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  child.stdout!.on('data', (c) => output.push(String(c)));
  child.stderr!.on('data', (c) => output.push(String(c)));
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited: ${output.join('').slice(-2000)}`);
    try {
      await fetch(url + probe);
      break;
    } catch {
      if (Date.now() > until) throw new Error(`${command} did not start: ${output.join('').slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  return { process: child, url, output, stop };
}

export interface Load { method?: 'GET' | 'POST'; path: string; headers?: Record<string, string>; body?: string }

/** One autocannon run: requests per second (2xx only) and p50/p99 latency in ms. */
export async function cannon(url: string, load: Load): Promise<{ rps: number; p50: number; p99: number; non2xx: number }> {
  const result = await autocannon({
    url: url + load.path, method: load.method ?? 'GET', headers: load.headers, body: load.body,
    connections: CONNECTIONS, duration: SECONDS,
  });
  const ok = result['2xx'];
  return { rps: ok / SECONDS, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx };
}

/** The median over RUNS runs of a measurement. */
export async function medianOf(runs: () => Promise<number>): Promise<{ median: number; runs: number[] }> {
  const values: number[] = [];
  for (let i = 0; i < RUNS; i++) values.push(await runs());
  return { median: median(values), runs: values };
}
