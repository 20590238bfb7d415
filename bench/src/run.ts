/** `pnpm bench`: every benchmark in turn, one table on stdout, the same in bench/RESULTS.md. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchCheckout } from './checkout.js';
import { CONNECTIONS, machine, ROOT, RUNS, SECONDS } from './lib.js';
import { benchPipeline, summary } from './pipeline.js';
import { benchSdk } from './sdk.js';
import { benchServer } from './server.js';
import { benchWebhooks } from './webhooks.js';

/** One line of the table. `higher`: whether a bigger number is better (req/s) or worse (ms, bytes). */
interface Row { area: string; figure: string; fundkit: number; unit: string; peer?: string; peerValue?: number | null; higher?: boolean }

const rows: Row[] = [];
const notes: string[] = [];
const commands = ['pnpm bench  (= pnpm --filter @fundkit/bench bench = tsx bench/src/run.ts)'];
const step = (name: string) => process.stdout.write(`▶ ${name}\n`);
/** `--only sdk,webhooks` runs a subset for a quick check; a partial table never replaces RESULTS.md. */
const onlyIndex = process.argv.indexOf('--only');
const only = onlyIndex === -1 ? undefined : new Set((process.argv[onlyIndex + 1] ?? '').split(','));

async function section(name: string, run: () => Promise<void>): Promise<void> {
  if (only && !only.has(name)) return;
  step(name);
  try {
    await run();
  } catch (error) {
    notes.push(`${name} failed: ${(error as Error).message.split('\n')[0]}`);
  }
}

await section('server', async () => {
  const server = await benchServer();
  notes.push(...server.notes);
  commands.push(...server.commands);
  for (const f of server.figures) {
    rows.push({ area: 'server', figure: f.name, fundkit: f.fundkit, unit: 'req/s', peer: 'Express hello-world', peerValue: f.express, higher: true });
    rows.push({ area: 'server', figure: f.name, fundkit: f.fundkit, unit: 'req/s', peer: 'Prism mock (same spec)', peerValue: f.prism, higher: true });
    rows.push({ area: 'server', figure: `${f.name.replace(' (req/s)', '')} p99 latency`, fundkit: f.fundkitP99, unit: 'ms' });
  }
});

await section('pipeline', async () => {
  const p = await benchPipeline();
  const credited = summary(p.toCredited);
  const webhook = summary(p.toWebhook);
  for (const q of ['p50', 'p95', 'p99'] as const) rows.push({ area: 'pipeline', figure: `submit → CREDITED ${q} (${p.intents} intents)`, fundkit: credited[q], unit: 'ms' });
  for (const q of ['p50', 'p95', 'p99'] as const) rows.push({ area: 'pipeline', figure: `submit → webhook received ${q}`, fundkit: webhook[q], unit: 'ms' });
  notes.push(`pipeline: in-process server, in-memory database, shipped worker interval ${p.workerIntervalMs} ms, 10 intents in flight`);
});

await section('webhooks', async () => {
  const w = await benchWebhooks();
  const label = `verify a ${w.bytes} B event`;
  rows.push({ area: 'webhooks', figure: `${label}: verifyWebhook (async; node:crypto on Node, Web Crypto elsewhere)`, fundkit: w.fundkitAsync, unit: 'ops/s', peer: 'stripe constructEventAsync', peerValue: w.stripeAsync, higher: true });
  rows.push({ area: 'webhooks', figure: `${label}: verifyWebhookSync (node:crypto)`, fundkit: w.fundkitSync, unit: 'ops/s', peer: 'stripe constructEvent', peerValue: w.stripe, higher: true });
});

await section('sdk', async () => {
  const s = await benchSdk();
  rows.push({ area: 'sdk', figure: 'fundingIntents.retrieve per call', fundkit: s.sdkUs, unit: 'µs', peer: 'raw openapi-fetch GET', peerValue: s.openapiFetchUs, higher: false });
  rows.push({ area: 'sdk', figure: 'fundingIntents.retrieve per call', fundkit: s.sdkUs, unit: 'µs', peer: 'plain fetch + json()', peerValue: s.fetchUs, higher: false });
  rows.push({ area: 'sdk', figure: 'ESM entry (dist/index.js), gzip', fundkit: s.sdkGz, unit: 'B', peer: 'openapi-fetch ESM, gzip', peerValue: s.openapiFetchGz, higher: false });
  notes.push(`sdk: overhead over raw openapi-fetch ${(s.sdkUs - s.openapiFetchUs).toFixed(0)} µs per call (3,000 sequential calls per run, keep-alive, a local server answering a fixed FundingIntent)`);
});

await section('checkout', async () => {
  const c = await benchCheckout();
  const budgets = JSON.parse(readFileSync(join(ROOT, 'bench/budgets.json'), 'utf8')) as Record<string, { target?: number }>;
  for (const f of c.files) {
    const core = f.name === 'fundkit-checkout.js';
    rows.push({ area: 'checkout', figure: `${f.name} raw`, fundkit: f.raw, unit: 'B' });
    rows.push({ area: 'checkout', figure: `${f.name} gzip`, fundkit: f.gz, unit: 'B', ...(core ? { peer: 'budget target', peerValue: budgets['checkout-iife-core']?.target ?? null, higher: false } : {}) });
  }
  if (c.firstRenderMs !== null) rows.push({ area: 'checkout', figure: 'script load → first render (Chromium)', fundkit: c.firstRenderMs, unit: 'ms' });
  if (c.readyMs !== null) rows.push({ area: 'checkout', figure: 'script load → amount shown (API round trips)', fundkit: c.readyMs, unit: 'ms' });
});

const fmt = (n: number, unit: string) => (unit === 'B' || n >= 100 ? Math.round(n).toLocaleString('en') : n.toFixed(1));
/** ratio = Fundkit ÷ peer; "relative" turns it into "how good vs the peer" (1 = equal, < 1 = worse). */
const ratio = (r: Row) => (r.peerValue ? r.fundkit / r.peerValue : null);
const relative = (r: Row) => {
  const x = ratio(r);
  return x === null ? null : r.higher ? x : 1 / x;
};
const table = [
  '| area | figure | Fundkit (median) | peer | peer (median) | ratio Fundkit ÷ peer |',
  '|---|---|---:|---|---:|---:|',
  ...rows.map((r) => `| ${r.area} | ${r.figure} | ${fmt(r.fundkit, r.unit)} ${r.unit} | ${r.peer ?? '—'} | ${r.peerValue ? `${fmt(r.peerValue, r.unit)} ${r.unit}` : '—'} | ${ratio(r) === null ? '—' : `${ratio(r)!.toFixed(2)}×`} |`),
].join('\n');
const worst = rows.filter((r) => relative(r) !== null).sort((a, b) => relative(a)! - relative(b)!)[0];
const m = machine();
const md = `# Benchmark results

Written by \`pnpm bench\` (bench/src/run.ts); do not edit by hand.

- machine: ${m.cpu}, ${m.cores} cores, ${m.memory}, Node ${m.node}
- date: ${m.date}
- method: every figure is the median of ${RUNS} runs (pipeline: percentiles over its intents); peers are measured in the same run, on the same machine, one after the other
- HTTP load: autocannon, ${CONNECTIONS} connections, ${SECONDS} s per run, in the bench process; servers in their own processes (2 cores shared with the load generator)

${table}

Ratio: Fundkit ÷ peer. For req/s and ops/s higher is better; for µs, ms and bytes lower is better.
${worst ? `Weakest against its peer: **${worst.figure}** vs ${worst.peer} (${ratio(worst)!.toFixed(3)}×).` : ''}

## Commands
${commands.map((c) => `- \`${c}\``).join('\n')}

## Notes
${notes.map((n) => `- ${n}`).join('\n') || '- none'}
`;
if (!only) writeFileSync(join(ROOT, 'bench/RESULTS.md'), md);
process.stdout.write(`\n${table}\n\n${notes.map((n) => `note: ${n}`).join('\n')}\n\n${only ? 'subset run: bench/RESULTS.md left as it was' : 'written to bench/RESULTS.md'}\n`);
