/**
 * A soak (issue 27): the built server on the default sandbox (the instant ledger, no
 * FUNDKIT_SANDBOX_LEDGER_SECONDS) over a fresh SQLite file, creates and lists of 50 mixed at
 * saturation (autocannon, SERVER_CONNECTIONS connections, each alternating a create and a list)
 * for BENCH_SOAK_SECONDS (default 300). Sampled every SAMPLE_MS: the server's resident memory
 * (VmRSS of its process and any it spawned, from /proc) and the intents in its database (read-only).
 * Then one `GET /v1/assets` right after the load stops, and more at 1 s intervals.
 */
import { readdirSync, readFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { freePort, median, startChild } from './lib.js';
import { auth, KEY, ADDRESS, SERVER_CONNECTIONS } from './server.js';

export const SOAK_SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 300);
const SAMPLE_MS = 2_000;
const AFTER_READS = 5;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Least-squares slope of RSS over intents: bytes per intent, less sensitive to one sample's GC state than two endpoints. */
function slope(samples: Sample[]): number {
  const n = samples.length;
  const mx = samples.reduce((a, s) => a + s.intents, 0) / n;
  const my = samples.reduce((a, s) => a + s.rss, 0) / n;
  const sxx = samples.reduce((a, s) => a + (s.intents - mx) ** 2, 0);
  return sxx === 0 ? 0 : samples.reduce((a, s) => a + (s.intents - mx) * (s.rss - my), 0) / sxx;
}

/** A process and its descendants (a worker process the server may spawn counts too). */
function tree(pid: number): number[] {
  const out = [pid];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const child of children ? children.split(/\s+/) : []) out.push(...tree(Number(child)));
    }
  } catch { /* exited meanwhile */ }
  return out;
}

/** Resident memory in bytes (VmRSS) of the process tree. */
function rss(pid: number): number {
  let bytes = 0;
  for (const p of tree(pid)) {
    try {
      const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
      if (m) bytes += Number(m[1]) * 1024;
    } catch { /* exited meanwhile */ }
  }
  return bytes;
}

/** One GET over a new connection: request sent → last byte, ms. */
function timedGet(url: string, headers: Record<string, string>): Promise<{ ms: number; status: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    http.get(url, { agent: false, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ ms: performance.now() - t0, status: res.statusCode! }));
    }).on('error', reject);
  });
}

export interface Sample { s: number; rss: number; intents: number }
export interface SoakFigures {
  seconds: number; samples: Sample[]; requests: number; non2xx: number; p50: number; p99: number;
  rssStart: number; rssEnd: number; rssPeak: number; intents: number;
  perIntent: number; perIntentSecondHalf: number; secondHalfIntents: number;
  /** least-squares bytes per intent over the samples taken under load: whole soak, second half */
  slopeAll: number; slopeSecondHalf: number;
  assetsAfter: number; assetsLater: number[];
}

export async function benchSoak(): Promise<{ figures: SoakFigures; notes: string[]; commands: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'fundkit-bench-soak-'));
  const port = await freePort();
  const env = {
    FUNDKIT_DB: join(dir, 'soak.db'), FUNDKIT_DATA_DIR: dir, FUNDKIT_BOOTSTRAP: join(dir, 'bootstrap.json'),
    FUNDKIT_MASTER_KEY: 'ab'.repeat(32), LOG_LEVEL: 'warn', PORT: String(port),
    // the bench measures the server, not the limiter
    FUNDKIT_RATE_LIMIT: '1000000', FUNDKIT_RATE_LIMIT_BURST: '1000000',
  };
  writeFileSync(env.FUNDKIT_BOOTSTRAP, JSON.stringify({ applications: [{ name: 'Soak', secret_keys: [KEY], settlement_address: ADDRESS }] }));
  const server = await startChild(process.execPath, ['packages/server/bin/fundkit-server.js'], env, port, '/v1/assets');
  const pid = server.process.pid!;
  const db = new Database(env.FUNDKIT_DB, { readonly: true, fileMustExist: true });
  const count = db.prepare('SELECT COUNT(*) FROM funding_intents').pluck();
  try {
    // settled first: the default pool (20 per asset) made on the instant ledger
    await sleep(5_000);
    const samples: Sample[] = [];
    const t0 = performance.now();
    const sample = () => samples.push({ s: (performance.now() - t0) / 1000, rss: rss(pid), intents: count.get() as number });
    sample();
    const timer = setInterval(sample, SAMPLE_MS);
    const json = { ...auth, 'content-type': 'application/json' };
    const result = await autocannon({
      url: server.url, connections: SERVER_CONNECTIONS, duration: SOAK_SECONDS,
      requests: [
        { method: 'POST', path: '/v1/funding-intents', headers: json, body: '{"amount":"25.00","asset":"USDC"}' },
        { method: 'GET', path: '/v1/funding-intents?limit=50', headers: auth },
      ],
    });
    clearInterval(timer);
    const assetsAfter = (await timedGet(`${server.url}/v1/assets`, auth)).ms;
    sample();
    const assetsLater: number[] = [];
    for (let i = 0; i < AFTER_READS; i++) {
      await sleep(1_000);
      assetsLater.push((await timedGet(`${server.url}/v1/assets`, auth)).ms);
    }
    // the samples under load (the last one is taken after the load, with the reads)
    const loaded = samples.slice(0, -1);
    const first = samples[0]!;
    const last = samples.at(-1)!;
    const mid = samples.reduce((best, s) => (Math.abs(s.s - SOAK_SECONDS / 2) < Math.abs(best.s - SOAK_SECONDS / 2) ? s : best));
    const figures: SoakFigures = {
      seconds: SOAK_SECONDS, samples, requests: result['2xx'], non2xx: result.non2xx, p50: result.latency.p50, p99: result.latency.p99,
      rssStart: first.rss, rssEnd: last.rss, rssPeak: Math.max(...samples.map((s) => s.rss)), intents: last.intents - first.intents,
      perIntent: (last.rss - first.rss) / Math.max(1, last.intents - first.intents),
      perIntentSecondHalf: (last.rss - mid.rss) / Math.max(1, last.intents - mid.intents), secondHalfIntents: last.intents - mid.intents,
      slopeAll: slope(loaded), slopeSecondHalf: slope(loaded.filter((x) => x.s >= mid.s)),
      assetsAfter, assetsLater,
    };
    const mb = (b: number) => (b / 2 ** 20).toFixed(0);
    process.stdout.write(`  soak: ${figures.intents} intents in ${SOAK_SECONDS} s, RSS ${mb(figures.rssStart)} → ${mb(figures.rssEnd)} MB (peak ${mb(figures.rssPeak)}), ${figures.perIntent.toFixed(0)} B/intent (second half ${figures.perIntentSecondHalf.toFixed(0)}; least-squares ${figures.slopeAll.toFixed(0)}, second half ${figures.slopeSecondHalf.toFixed(0)}), GET /v1/assets after ${assetsAfter.toFixed(1)} ms then ${assetsLater.map((v) => v.toFixed(1)).join(', ')} ms\n`);
    const every = Math.max(1, Math.round(samples.length / 12));
    const notes = [
      `soak: the built server on the default sandbox (instant ledger, no FUNDKIT_SANDBOX_LEDGER_SECONDS), a fresh SQLite file, FUNDKIT_RATE_LIMIT=1000000, LOG_LEVEL=warn; autocannon ${SERVER_CONNECTIONS} connections × ${SOAK_SECONDS} s (BENCH_SOAK_SECONDS), each connection alternating POST /v1/funding-intents (25 USDC) and GET /v1/funding-intents?limit=50: ${result['2xx']} 2xx (${(result['2xx'] / SOAK_SECONDS).toFixed(0)} req/s), ${result.non2xx} non-2xx, latency p50 ${result.latency.p50} ms / p99 ${result.latency.p99} ms; ${figures.intents} open intents created (none paid); RSS = VmRSS of the server process and its descendants from /proc every ${SAMPLE_MS / 1000} s (time s: MB, intents): ${samples.filter((_, i) => i % every === 0 || i === samples.length - 1).map((s) => `${s.s.toFixed(0)}: ${mb(s.rss)}, ${s.intents}`).join('; ')}; peak ${mb(figures.rssPeak)} MB; second half: from ${mid.s.toFixed(0)} s (${mb(mid.rss)} MB, ${mid.intents} intents). Bytes per intent from the endpoints (end − start, end − middle): ${figures.perIntent.toFixed(0)}, ${figures.perIntentSecondHalf.toFixed(0)}; least-squares slope of RSS over intents across the samples under load (one RSS sample moves with the garbage collector's state): ${figures.slopeAll.toFixed(0)} whole soak, ${figures.slopeSecondHalf.toFixed(0)} second half. GET /v1/assets over a new connection right after the load stopped ${assetsAfter.toFixed(1)} ms, then at 1 s intervals ${assetsLater.map((v) => v.toFixed(1)).join(', ')} ms. Issue 27's before: ~4 KB per open intent (320 → 600 MB over 70,000 intents), GET /v1/assets 1.3 s after the load. The sandbox network runs in the server's thread (counted in its RSS); 2 shared cores with the load generator: noisy`,
    ];
    return { figures, notes, commands: ['cd bench && npx tsx src/run.ts --only soak --merge   (BENCH_SOAK_SECONDS=60 for a short try)', 'node packages/server/bin/fundkit-server.js  (soak: FUNDKIT_DB=<fresh file>, no FUNDKIT_SANDBOX_LEDGER_SECONDS, FUNDKIT_RATE_LIMIT=1000000, LOG_LEVEL=warn)'] };
  } finally {
    db.close();
    await server.stop();
  }
}

export const medianAfter = (f: SoakFigures) => median(f.assetsLater);
