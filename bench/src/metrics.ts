/**
 * What the metrics cost the request path (issue 30): the same server, the same seeded database,
 * with FUNDKIT_METRICS on (the default: HTTP counters and histograms, event-loop monitoring, a
 * scrape every 5 s) and off, measured in alternating runs so
 * the machine's drift falls on both alike, the other one frozen (SIGSTOP) meanwhile. Budget: within 5 %.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cannon, freePort, median, RUNS, startChild, type Child, type Load } from './lib.js';
import { auth, CREATE, seed } from './server.js';

const SEEDED = 10_000;
/** Prometheus scrapes every 15 s to 1 min as commonly set up; every 5 s is still on the busy side */
const SCRAPE_MS = 5_000;
const TOKEN = 'bench-metrics-token';

export interface MetricsFigure { name: string; on: number; off: number; onP99: number; offP99: number }

async function start(on: boolean): Promise<Child> {
  const seeded = await seed(mkdtempSync(join(tmpdir(), `fundkit-bench-metrics-${on ? 'on' : 'off'}-`)), SEEDED);
  const port = await freePort();
  return startChild(process.execPath, ['packages/server/bin/fundkit-server.js'],
    // no warm pool: its fill runs in the background for a while after start, and would fall on
    // whichever server is measured then (the creates' accounts are made at the ledger's pace alike)
    { ...seeded.env, PORT: String(port), FUNDKIT_METRICS: on ? 'on' : 'off', FUNDKIT_METRICS_TOKEN: TOKEN, FUNDKIT_SANDBOX_LEDGER_SECONDS: '5', FUNDKIT_DEPOSIT_POOL_SIZE: '0' }, port, '/v1/assets');
}

export async function benchMetrics(): Promise<{ figures: MetricsFigure[]; notes: string[] }> {
  const on = await start(true);
  const off = await start(false);
  const scraper = setInterval(() => void fetch(`${on.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } }).then((r) => r.text()).catch(() => undefined), SCRAPE_MS);
  try {
    const loads: { name: string; load: Load }[] = [
      { name: 'GET /v1/assets', load: { path: '/v1/assets', headers: auth } },
      { name: 'retrieve intent', load: { path: `/v1/funding-intents/fi_bench${String(SEEDED / 2).padStart(20, '0')}`, headers: auth } },
      { name: 'list page 1, limit 50', load: { path: '/v1/funding-intents?limit=50', headers: auth } },
      { name: 'create intent', load: CREATE },
    ];
    const figures: MetricsFigure[] = [];
    // a warm-up of each (JIT, caches, first statements prepared), not counted
    for (const child of [on, off]) await cannon(child.url, loads[1]!.load);
    for (const { name, load } of loads) {
      const runs = { on: [] as number[], off: [] as number[], onP99: [] as number[], offP99: [] as number[] };
      for (let i = 0; i < RUNS; i++) {
        // alternate which goes first, so neither always runs on a warmer machine
        const order = i % 2 === 0 ? [['on', on], ['off', off]] as const : [['off', off], ['on', on]] as const;
        for (const [which, child] of order) {
          // the other server is frozen meanwhile: its background work (its own pipeline, pool and
          // ledger) must not take the cores from the one measured
          const other = child === on ? off : on;
          other.process.kill('SIGSTOP');
          child.process.kill('SIGCONT');
          const r = await cannon(child.url, load);
          other.process.kill('SIGCONT');
          runs[which].push(r.rps);
          runs[`${which}P99`].push(r.p99);
        }
      }
      const figure = { name, on: median(runs.on), off: median(runs.off), onP99: median(runs.onP99), offP99: median(runs.offP99) };
      process.stdout.write(`  ${name}: metrics on ${figure.on.toFixed(0)} req/s, off ${figure.off.toFixed(0)} req/s (${((figure.on / figure.off - 1) * 100).toFixed(1)} %)\n`);
      figures.push(figure);
    }
    return { figures, notes: [`metrics: one server with FUNDKIT_METRICS=on scraped every ${SCRAPE_MS} ms, one with FUNDKIT_METRICS=off, each on its own copy of ${SEEDED.toLocaleString('en')} seeded intents, a 5 s sandbox ledger and no warm pool; a warm-up run each first; runs alternate between them, the server not measured frozen (SIGSTOP) meanwhile`] };
  } finally {
    clearInterval(scraper);
    await on.stop();
    await off.stop();
  }
}
