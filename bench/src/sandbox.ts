/**
 * `fundkit sandbox` ready time (issue 27): the CLI spawned on a free port over a fresh SQLite file,
 * timed from spawn to its "ready in" banner on stdout, to the first 200 of `GET /` (Horizon's
 * root) and to the first healthy answer of the RPC's `getHealth` at `/rpc`; RUNS_READY spawns, medians.
 * Beside it, in the same run, the floor of any Node server: `node -e` with a bare node:http server,
 * spawn → first answer. Then the same CLI restarted on the database it made (a second start).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, median, ROOT } from './lib.js';

export const RUNS_READY = 5;

export interface ReadyRun { bannerMs: number | null; horizonMs: number; rpcMs: number; reportedMs: number | null }

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function horizonUp(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/`);
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

async function rpcUp(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"getHealth"}' });
    const body = await res.json() as { result?: { status?: string } };
    return res.status === 200 && body.result?.status === 'healthy';
  } catch {
    return false;
  }
}

/** Spawns `args`, polls every 5 ms until each probe answers; then stops the process. */
async function timeStart(args: string[], port: number, probes: { horizon: (u: string) => Promise<boolean>; rpc: (u: string) => Promise<boolean> }): Promise<ReadyRun> {
  const url = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  let bannerMs: number | null = null;
  child.stdout!.on('data', (c) => {
    output.push(String(c));
    if (bannerMs === null && /ready in|listening/i.test(output.join(''))) bannerMs = performance.now() - t0;
  });
  child.stderr!.on('data', (c) => output.push(String(c)));
  const at: { horizon?: number; rpc?: number } = {};
  try {
    const until = t0 + 60_000;
    while (at.horizon === undefined || at.rpc === undefined) {
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited: ${output.join('').slice(-1000)}`);
      if (performance.now() > until) throw new Error(`${args.join(' ')} not ready in 60 s: ${output.join('').slice(-1000)}`);
      if (at.horizon === undefined && await probes.horizon(url)) at.horizon = performance.now() - t0;
      if (at.rpc === undefined && await probes.rpc(url)) at.rpc = performance.now() - t0;
      await sleep(5);
    }
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    if (child.exitCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
  const reported = /ready in (\d+) ms/.exec(output.join(''));
  return { bannerMs, horizonMs: at.horizon!, rpcMs: at.rpc!, reportedMs: reported ? Number(reported[1]) : null };
}

export interface ReadyFigures { fresh: ReadyRun[]; restart: ReadyRun[]; floor: number[]; packageBin: ReadyRun[] }

export async function benchSandboxReady(): Promise<{ figures: ReadyFigures; notes: string[]; commands: string[] }> {
  const fresh: ReadyRun[] = [];
  const restart: ReadyRun[] = [];
  const floor: number[] = [];
  const packageBin: ReadyRun[] = [];
  const bare = async (u: string) => {
    try {
      return (await fetch(`${u}/`)).status === 200;
    } catch {
      return false;
    }
  };
  for (let i = 0; i < RUNS_READY; i++) {
    const db = join(mkdtempSync(join(tmpdir(), 'fundkit-bench-sandbox-')), 'sandbox.db');
    const cli = async () => {
      const port = await freePort();
      return timeStart(['packages/server/bin/fundkit.js', 'sandbox', '--port', String(port), '--db', db], port, { horizon: horizonUp, rpc: rpcUp });
    };
    fresh.push(await cli());
    restart.push(await cli());
    // the same network from its own package's bin, which loads none of the server
    const binPort = await freePort();
    const binDb = join(mkdtempSync(join(tmpdir(), 'fundkit-bench-sandbox-bin-')), 'sandbox.db');
    packageBin.push(await timeStart(['packages/sandbox/bin/fundkit-sandbox.js', '--port', String(binPort), '--db', binDb], binPort, { horizon: horizonUp, rpc: rpcUp }));
    const port = await freePort();
    const node = await timeStart(['-e', `require('node:http').createServer((q, s) => s.end('ok')).listen(${port}, '127.0.0.1')`], port, { horizon: bare, rpc: bare });
    floor.push(node.horizonMs);
    const f = fresh.at(-1)!;
    process.stdout.write(`  sandbox: banner ${f.bannerMs?.toFixed(0)} ms (it says ${f.reportedMs} ms), Horizon / ${f.horizonMs.toFixed(0)} ms, RPC getHealth ${f.rpcMs.toFixed(0)} ms; restart ${restart.at(-1)!.rpcMs.toFixed(0)} ms; fundkit-sandbox bin ${packageBin.at(-1)!.rpcMs.toFixed(0)} ms; bare node ${node.horizonMs.toFixed(0)} ms\n`);
  }
  const m = (runs: ReadyRun[], k: keyof ReadyRun) => median(runs.map((r) => r[k] ?? Number.NaN));
  const notes = [
    `sandbox: \`node packages/server/bin/fundkit.js sandbox --port <free> --db <fresh file>\` spawned ${RUNS_READY} times, each probe polled every 5 ms from spawn: banner (stdout "ready in N ms") ${fresh.map((r) => r.bannerMs?.toFixed(0)).join(', ')} ms (the CLI's own "ready in": ${fresh.map((r) => r.reportedMs).join(', ')} ms, from its command's start, after Node's and the modules' load); first 200 of GET / ${fresh.map((r) => r.horizonMs.toFixed(0)).join(', ')} ms; first healthy getHealth at /rpc ${fresh.map((r) => r.rpcMs.toFixed(0)).join(', ')} ms; restarted on the database it made: getHealth ${restart.map((r) => r.rpcMs.toFixed(0)).join(', ')} ms (median ${m(restart, 'rpcMs').toFixed(0)}); \`node packages/sandbox/bin/fundkit-sandbox.js --port <free> --db <fresh file>\` (@fundkit/sandbox's own bin, none of the server loaded): getHealth ${packageBin.map((r) => r.rpcMs.toFixed(0)).join(', ')} ms; peer: node -e with a bare node:http server, spawn → first answer, ${floor.map((v) => v.toFixed(0)).join(', ')} ms; 2 shared cores: noisy`,
  ];
  return {
    figures: { fresh, restart, floor, packageBin }, notes,
    commands: ['cd bench && npx tsx src/run.ts --only sandbox --merge', 'node packages/server/bin/fundkit.js sandbox --port <free> --db <tmp>/sandbox.db', 'node packages/sandbox/bin/fundkit-sandbox.js --port <free> --db <tmp>/sandbox.db'],
  };
}
