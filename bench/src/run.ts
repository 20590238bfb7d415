/** `pnpm bench`: every benchmark in turn, one table on stdout, the same in bench/RESULTS.md. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchCheckout } from './checkout.js';
import { benchDashboard } from './dashboard.js';
import { benchMetrics } from './metrics.js';
import { benchEngines } from './engines.js';
import { benchFollower, OPEN } from './follower.js';
import { STREAMS } from './streams.js';
import { machine, median, percentile, ROOT, RUNS, SECONDS } from './lib.js';
import { benchNetwork, COUNTS, LEDGER_SECONDS, WARM_UP_CREATES } from './network.js';
import { benchPipeline, summary } from './pipeline.js';
import { benchSdk } from './sdk.js';
import { benchFreshPace, benchPace, FRESH_AFTER_MS, PACE_COUNTS } from './pace.js';
import { benchSandboxReady } from './sandbox.js';
import { benchInstantCreate, benchServer, SERVER_CONNECTIONS } from './server.js';
import { benchSoak, medianAfter } from './soak.js';
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
  if (server.signIn.fundkit !== null) {
    rows.push({ area: 'server', figure: 'sign-in (POST /v1/auth/sign-in, one at a time), median latency', fundkit: server.signIn.fundkit, unit: 'ms', peer: 'before (BENCH_BEFORE, same run)', peerValue: server.signIn.before, higher: false });
  }
  for (const f of server.figures) {
    rows.push({ area: 'server', figure: f.name, fundkit: f.fundkit, unit: 'req/s', peer: 'Express hello-world', peerValue: f.express, higher: true });
    rows.push({ area: 'server', figure: f.name, fundkit: f.fundkit, unit: 'req/s', peer: 'Prism mock (same spec)', peerValue: f.prism, higher: true });
    rows.push({ area: 'server', figure: `${f.name.replace(' (req/s)', '')} p99 latency`, fundkit: f.fundkitP99, unit: 'ms' });
    if (f.before !== null) {
      rows.push({ area: 'server', figure: f.name, fundkit: f.fundkit, unit: 'req/s', peer: 'before (BENCH_BEFORE, same run)', peerValue: f.before, higher: true });
      rows.push({ area: 'server', figure: `${f.name.replace(' (req/s)', '')} p99 latency`, fundkit: f.fundkitP99, unit: 'ms', peer: 'before (BENCH_BEFORE, same run)', peerValue: f.beforeP99, higher: false });
    }
  }
});

await section('metrics', async () => {
  const { figures, notes: metricNotes } = await benchMetrics();
  notes.push(...metricNotes);
  for (const f of figures) {
    rows.push({ area: 'metrics', figure: `${f.name}, metrics on (req/s)`, fundkit: f.on, unit: 'req/s', peer: 'the same server, metrics off', peerValue: f.off, higher: true });
    rows.push({ area: 'metrics', figure: `${f.name}, metrics on, p99 latency`, fundkit: f.onP99, unit: 'ms', peer: 'metrics off', peerValue: f.offP99, higher: false });
  }
});

await section('follower', async () => {
  const { figures, reserves, notes: followerNotes } = await benchFollower();
  notes.push(...followerNotes);
  if (reserves) {
    rows.push({ area: 'follower', figure: `treasury XLM locked per open intent, deposit_type muxed (${reserves.muxedIntents.toLocaleString('en')} intents)`, fundkit: reserves.perMuxedIntent, unit: 'XLM', peer: `deposit_type account (${reserves.accountIntents.toLocaleString('en')} intents)`, peerValue: reserves.perAccountIntent, higher: false });
    rows.push({ area: 'follower', figure: 'treasury XLM locked by the collection accounts (USDC, EURC, XLM), once', fundkit: reserves.collectionsOnce, unit: 'XLM' });
  }
  for (const api of ['rpc', 'horizon'] as const) {
    const at = (open: number) => figures.find((f) => f.api === api && f.open === open)?.perLedger ?? null;
    const few = at(OPEN[0]!);
    const many = at(OPEN[1]!);
    if (many !== null) {
      rows.push({ area: 'follower', figure: `${api === 'rpc' ? 'Stellar RPC' : 'Horizon'}: requests a ledger at rest, ${OPEN[1]!.toLocaleString('en')} open intents (target ≤ 3)`, fundkit: Number(many.toFixed(2)), unit: 'req/ledger', peer: `${OPEN[0]} open intents`, peerValue: few === null ? null : Number(few.toFixed(2)), higher: false });
    }
  }
});

await section('engines', async () => {
  const { figures, streams, notes: engineNotes } = await benchEngines();
  notes.push(...engineNotes);
  const base = (load: string) => figures.find((f) => f.engine === 'SQLite' && f.load === load);
  for (const f of figures) {
    const label = `${f.load === 'create' ? 'create intent' : 'list page 1, limit 50'}, ${f.engine} × ${f.processes} process${f.processes > 1 ? 'es' : ''}`;
    const peer = f.engine === 'SQLite' ? undefined : base(f.load);
    rows.push({ area: 'engines', figure: `${label} (req/s)`, fundkit: f.rps, unit: 'req/s', ...(peer ? { peer: 'SQLite × 1 process', peerValue: peer.rps, higher: true } : {}) });
    rows.push({ area: 'engines', figure: `${label} p99 latency`, fundkit: f.p99, unit: 'ms' });
    if (f.non2xx > 0) notes.push(`engines: ${label}: ${f.non2xx} non-2xx answers (${JSON.stringify(f.statuses)})`);
  }
  if (streams) {
    for (const [label, cost] of [[`${STREAMS.toLocaleString('en')} status streams open`, streams.open], ['no status stream open', streams.none]] as const) {
      rows.push({ area: 'engines', figure: `server CPU, ${label}, PostgreSQL × 1 process`, fundkit: cost.serverCpuMsPerS, unit: 'ms/s' });
      rows.push({ area: 'engines', figure: `PostgreSQL CPU (all its processes), ${label}`, fundkit: cost.databaseCpuMsPerS, unit: 'ms/s' });
    }
    notes.push(`engines, status streams: ${STREAMS.toLocaleString('en')} GET /v1/public/funding-intents/{id}/status streams (text/event-stream), one per intent, held open on the PostgreSQL × 1 server while nothing changes; CPU time per second of wall time over ${SECONDS} s from /proc (utime + stime), of the server process and of the cluster's postmaster and backends, beside the same server before any stream opened`);
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

await section('network', async () => {
  const n = await benchNetwork();
  const { after, before } = n;
  const fig = (label: string, afterValue: number, unit: string, beforeLabel: string, beforeValue: number, higher: boolean) =>
    rows.push({ area: 'network', figure: label, fundkit: afterValue, unit, peer: beforeLabel, peerValue: beforeValue, higher });
  const p = (values: number[], q: number) => percentile(values, q);
  const s = (ms: number) => ms / 1000;
  const beforeCreates = `before: create → payable (the old create waited for its account), ${before.create.creates} creates, ${before.create.clients} clients`;
  for (const q of [50, 95]) fig(`create latency p${q}: ${after.create.creates} creates, ${after.create.clients} clients (target p95 ≤ 50 ms)`, p(after.create.latency, q), 'ms', beforeCreates, p(before.create.payable, q), false);
  for (const q of [50, 95]) fig(`create → payable (AWAITING_PAYMENT) p${q}: ${after.create.creates} creates`, s(p(after.create.payable, q)), 's', `before: ${before.create.creates} creates, ${before.create.clients} clients`, s(p(before.create.payable, q)), false);
  fig(`ledgers from the last payment's ledger until all CREDITED: ${after.pay.intents} intents, ${after.pay.intents} payers (target ≤ 3)`, after.pay.ledgersToCredited, 'ledgers', `before: ${before.pay.intents} intents, ${before.pay.intents} payers`, before.pay.ledgersToCredited, false);
  const maxOps = (r: typeof after.pay) => Math.max(...r.perLedger.map((l) => l.treasuryOps));
  const busy = (r: typeof after.pay) => r.perLedger.filter((l) => l.treasuryOps > 0).length;
  fig(`treasury operations applied per ledger, max (${after.pay.intents} payments; target ≥ 500)`, maxOps(after.pay), 'ops', `before: ${before.pay.intents} payments`, maxOps(before.pay), true);
  fig('ledgers carrying treasury operations, first payment → last settlement', busy(after.pay), 'ledgers', `before: ${before.pay.intents} payments`, busy(before.pay), false);
  const perLedger = (r: typeof after.pay) => r.perLedger.map((l) => `${l.ledger}: ${l.treasuryOps} (${l.settlementOps} settlement, ${l.txs} tx; ${l.allOps} ops in the ledger)`).join('; ');
  const beforePerSettlement = before.pay.ledgersToCredited / before.pay.intents;
  const beforePerPayable = (p(before.create.payable, 95) / 1000 / LEDGER_SECONDS) / before.create.creates;
  const createRate = after.create.creates / after.create.wallSeconds;
  const settleMax = Math.max(...after.pay.perLedger.map((l) => l.settlementOps));
  const misses: string[] = [];
  if (p(after.create.latency, 95) > 50) misses.push(`create p95 ${p(after.create.latency, 95).toFixed(0)} ms is above the 50 ms target: with ${after.create.clients} clients always in flight the latency is ≈ clients ÷ throughput (Little's law), and the server answered ${createRate.toFixed(0)} creates/s here (p50 by answer: ${Object.entries(after.create.p50ByStatus).map(([k, v]) => `${k} ${v.toFixed(0)} ms`).join(', ')}; the load generator shares the 2 cores)`);
  if (after.pay.ledgersToCredited > 3 || maxOps(after.pay) < 500) misses.push(`settlements ran at most ${settleMax} a ledger (${after.pay.settlementTxs} transactions, ≈ ${Math.round(after.pay.intents / after.pay.settlementTxs)} settlements each, over ${after.pay.channels} channels that could carry 100 each), so ${after.pay.intents} took ${after.pay.ledgersToCredited} ledgers after the last payment's (target ≤ 3) and the treasury peaked at ${maxOps(after.pay)} operations a ledger (target ≥ 500): the ceiling looks set by the settlement jobs in flight rather than by channels × 100 items (the settlement worker runs at most 200 jobs at once, CONCURRENT_SETTLEMENTS in packages/server/src/workers/settlement.ts, and a channel that frees up takes whatever is queued at that moment, so its transactions stay small)`);
  notes.push(
    `network: the built server in its own process over a file database, sandbox ledger closing every ${LEDGER_SECONDS} s (FUNDKIT_SANDBOX_LEDGER_SECONDS=${LEDGER_SECONDS}), default FUNDKIT_SANDBOX_LEDGER_MAX_OPS (1,000 operations a ledger), FUNDKIT_RATE_LIMIT=1000000. "after" = shipped defaults (FUNDKIT_TREASURY_CHANNELS=8, FUNDKIT_TREASURY_BATCH_ITEMS=100, FUNDKIT_DEPOSIT_POOL_SIZE=20 for the creates); "before" = the same server with FUNDKIT_TREASURY_CHANNELS=1, FUNDKIT_TREASURY_BATCH_ITEMS=1, FUNDKIT_DEPOSIT_POOL_SIZE=0 (one treasury transaction a ledger, every account provisioned on demand), at the smaller counts its rows name (${COUNTS.beforeCreates} creates from ${COUNTS.beforeCreates} clients, then those ${COUNTS.beforePayers} intents paid by ${COUNTS.beforePayers} payers), because it lands one treasury transaction per ${LEDGER_SECONDS} s ledger`,
    `network, creates: latency of POST /v1/funding-intents (request sent → answer; 3 rounds of GETs from every client first to open their connections). After: ${WARM_UP_CREATES} creates in EURC first (a warm process: the create path compiled by the JIT, as on a serving server), then the pools (20 per asset) full again, no deposit batch pending, and the burst sent right after a ledger close (the embedded ledger applies a ledger's transactions at its close on the API's own event loop, ~0.5 ms per deposit account created, work that stellar-core does in another process on a real network); the load generator is node:http with keep-alive connections (one per client); ${after.create.roundsP95 ? `${after.create.roundsP95.length} bursts, each after its own ledger close, p95s ${after.create.roundsP95.map((v) => v.toFixed(0)).join(', ')} ms: the figures are the median burst's;` : ''} the pool (20 USDC) was full first (filled in ${after.poolFillSeconds.toFixed(0)} s at ${LEDGER_SECONDS} s ledgers); ${after.create.creates} creates in ${after.create.wallSeconds.toFixed(1)} s (${createRate.toFixed(0)}/s); answers ${JSON.stringify(after.create.createdStatus)}; intents that found the pool empty answered CREATED and became AWAITING_PAYMENT when the pool worker provisioned their account (create → payable, seen by polling GET /v1/funding-intents?status=AWAITING_PAYMENT every ~200 ms). Before: the old create waited in the request for its account, so its latency is this configuration's create → payable (p50 ${s(p(before.create.payable, 50)).toFixed(1)} s, p95 ${s(p(before.create.payable, 95)).toFixed(1)} s over ${before.create.creates} creates after a warm-up create; the HTTP answer itself took p95 ${p(before.create.latency, 95).toFixed(0)} ms, CREATED). This configuration still provisions up to 18 waiting accounts in one transaction, which the old code did not (one account per transaction, one a ledger): the old code's 200 creates needed ~200 ledgers (~${(200 * LEDGER_SECONDS / 60).toFixed(0)} min) for the last intent, its p50 ~100 ledgers. Create → payable: the pool worker provisions batches of at most 18 accounts (each new account signs its own operations, and a transaction carries 20 signatures), one per treasury channel at once, so the ${after.create.createdStatus.CREATED ?? 0} after-intents that found the pool empty went out in ~${Math.ceil((after.create.createdStatus.CREATED ?? 0) / 18)} transactions (p95 ${s(p(after.create.payable, 95)).toFixed(0)} s), and before's ${before.create.creates} (one channel: one transaction a ledger) over ~${Math.ceil(before.create.creates / 18)} ledgers; the before row is not at the same count`,
    `network, payments: ${after.pay.intents} intents (pool of ${after.pay.intents} per asset prepared ahead on the instant ledger in ${after.prefillSeconds.toFixed(0)} s, same database, then the server restarted at ${LEDGER_SECONDS} s ledgers with FUNDKIT_DEPOSIT_POOL_SIZE=${after.pay.intents}); every payment submitted at once right after ledger ${after.pay.sentAfterLedger} closed, each by a fresh faucet-funded payer (POST /v1/test_helpers/funding-intents/{id}/payments); applied in ledger(s) ${after.pay.paymentLedgers.join(', ')} (a ledger takes 1,000 operations at most, the sandbox default kept for fidelity: 1,000 one-operation payments fill a whole ledger, so the ledger that takes them has no room for anything else, and payments that are still being admitted at a close, or that do not fit, go into the next); settlements in ${after.pay.settlementTxs} transactions over ${after.pay.channels} channel accounts; last settlement in ledger ${after.pay.lastSettlementLedger}, last payment's ledger ${after.pay.lastPaymentLedger}; all CREDITED ${after.pay.seconds.toFixed(0)} s after the payments were sent. Before: ${before.pay.intents} intents, payments in ledger(s) ${before.pay.paymentLedgers.join(', ')}, ${before.pay.settlementTxs} settlement transactions, ${beforePerSettlement.toFixed(2)} ledgers per settlement: ${after.pay.intents} payments would need ~${Math.round(beforePerSettlement * after.pay.intents)} ledgers (~${(beforePerSettlement * after.pay.intents * LEDGER_SECONDS / 60).toFixed(0)} min), ${COUNTS.creates} creates ~${Math.round(beforePerPayable * COUNTS.creates)} ledgers at the measured before rate`,
    ...misses.map((m) => `network, below target: ${m}`),
    `network, treasury operations per ledger: operations of the transactions whose source is one of the channel accounts that carried the settlements (settlement payments, and the pool's top-up batches sharing those channels), per ledger from the first payment's ledger to the last settlement's, read from the sandbox Horizon (GET /sandbox/horizon/ledgers/{seq}/transactions). After: ${perLedger(after.pay)}. Before: ${perLedger(before.pay)}`,
  );
  commands.push(
    'cd bench && npx tsx src/run.ts --only network  (the network section alone)',
    `node packages/server/bin/fundkit-server.js  (FUNDKIT_DB=<file>, FUNDKIT_SANDBOX_LEDGER_SECONDS=${LEDGER_SECONDS}, FUNDKIT_RATE_LIMIT=1000000; before: + ${Object.entries({ FUNDKIT_TREASURY_CHANNELS: 1, FUNDKIT_TREASURY_BATCH_ITEMS: 1, FUNDKIT_DEPOSIT_POOL_SIZE: 0 }).map(([k, v]) => `${k}=${v}`).join(', ')}; payments: FUNDKIT_DEPOSIT_POOL_SIZE=${after.pay.intents}, filled first with FUNDKIT_SANDBOX_LEDGER_SECONDS=0)`,
  );
});

await section('create-pace', async () => {
  const { figures, notes: paceNotes, commands: paceCommands } = await benchPace();
  notes.push(...paceNotes);
  commands.push(...paceCommands);
  for (const f of figures) {
    for (const q of ['p50', 'p95', 'p99'] as const) {
      rows.push({ area: 'create-pace', figure: `create latency ${q} at ${f.ledgerSeconds} s ledgers: ${PACE_COUNTS.creates} creates, ${PACE_COUNTS.clients} clients, burst at a random moment of the ledger${q === 'p95' ? ' (target p95 ≤ 50 ms)' : ''}`, fundkit: f.random[q], unit: 'ms', peer: 'the same bursts right after a close', peerValue: f.afterClose[q], higher: false });
    }
  }
  const fresh = await benchFreshPace();
  notes.push(...fresh.notes);
  for (const q of ['p50', 'p95', 'p99'] as const) {
    rows.push({ area: 'create-pace', figure: `create latency ${q} on a fresh server at ${fresh.figure.ledgerSeconds} s ledgers: ${PACE_COUNTS.creates} creates, ${PACE_COUNTS.clients} clients, ${FRESH_AFTER_MS / 1000} s after its spawn${q === 'p95' ? ' (target p95 ≤ 50 ms)' : ''}`, fundkit: fresh.figure[q], unit: 'ms' });
  }
});

await section('create-instant', async () => {
  const { figure: f, drains, notes: instantNotes, commands: instantCommands } = await benchInstantCreate();
  notes.push(...instantNotes);
  commands.push(...instantCommands);
  rows.push({ area: 'create-instant', figure: `create intent, instant sandbox ledger, ${SERVER_CONNECTIONS} connections (req/s; target ≥ 0.3× Express)`, fundkit: f.fundkit, unit: 'req/s', peer: 'Express hello-world', peerValue: f.express, higher: true });
  rows.push({ area: 'create-instant', figure: 'create intent, instant sandbox ledger p99 latency (target ≤ 50 ms)', fundkit: f.fundkitP99, unit: 'ms' });
  rows.push({ area: 'create-instant', figure: 'deposit accounts of those creates created after each run, instant sandbox ledger (accounts/s, median of runs)', fundkit: median(drains.map((d) => d.accounts / d.seconds)), unit: 'accounts/s' });
});

await section('sandbox', async () => {
  const { figures: f, notes: readyNotes, commands: readyCommands } = await benchSandboxReady();
  notes.push(...readyNotes);
  commands.push(...readyCommands);
  const floor = median(f.floor);
  const peer = { peer: 'node -e, bare node:http server: spawn → first answer', peerValue: floor, higher: false };
  const m = (runs: typeof f.fresh, k: 'bannerMs' | 'horizonMs' | 'rpcMs') => median(runs.map((r) => r[k] ?? Number.NaN));
  rows.push({ area: 'sandbox', figure: `fundkit sandbox, fresh database: spawn → RPC getHealth healthy at /rpc (target ≤ 2 s), median of ${f.fresh.length}`, fundkit: m(f.fresh, 'rpcMs'), unit: 'ms', ...peer });
  rows.push({ area: 'sandbox', figure: 'fundkit sandbox, fresh database: spawn → GET / (Horizon root) 200', fundkit: m(f.fresh, 'horizonMs'), unit: 'ms', ...peer });
  rows.push({ area: 'sandbox', figure: 'fundkit sandbox, fresh database: spawn → "ready in" banner on stdout', fundkit: m(f.fresh, 'bannerMs'), unit: 'ms', ...peer });
  rows.push({ area: 'sandbox', figure: 'fundkit sandbox, restarted on its database: spawn → RPC getHealth healthy', fundkit: m(f.restart, 'rpcMs'), unit: 'ms', ...peer });
  rows.push({ area: 'sandbox', figure: 'fundkit-sandbox (@fundkit/sandbox\'s bin), fresh database: spawn → RPC getHealth healthy (target ≤ 1 s)', fundkit: m(f.packageBin, 'rpcMs'), unit: 'ms', ...peer });
});

await section('soak', async () => {
  const { figures: f, notes: soakNotes, commands: soakCommands } = await benchSoak();
  notes.push(...soakNotes);
  commands.push(...soakCommands);
  const mb = (b: number) => b / 2 ** 20;
  rows.push({ area: 'soak', figure: `creates + lists of 50 mixed, ${SERVER_CONNECTIONS} connections, ${f.seconds} s (req/s, 2xx)`, fundkit: f.requests / f.seconds, unit: 'req/s' });
  rows.push({ area: 'soak', figure: `server RSS at the end of ${f.seconds} s`, fundkit: mb(f.rssEnd), unit: 'MB', peer: 'at its start (pool made, before the load)', peerValue: mb(f.rssStart), higher: false });
  rows.push({ area: 'soak', figure: `open intents created in ${f.seconds} s`, fundkit: f.intents, unit: 'intents' });
  rows.push({ area: 'soak', figure: 'RSS growth per open intent, whole soak (target: no growth with the intents; issue\'s before ~4 KB)', fundkit: f.perIntent, unit: 'B' });
  rows.push({ area: 'soak', figure: `RSS growth per open intent, second half (${f.secondHalfIntents.toLocaleString('en')} intents; past the warm-up)`, fundkit: f.perIntentSecondHalf, unit: 'B' });
  rows.push({ area: 'soak', figure: 'RSS over open intents, least-squares slope of the samples under load, second half', fundkit: f.slopeSecondHalf, unit: 'B', peer: 'whole soak', peerValue: f.slopeAll, higher: false });
  rows.push({ area: 'soak', figure: 'GET /v1/assets right after the load stops (target ≤ 50 ms; issue\'s before 1.3 s)', fundkit: f.assetsAfter, unit: 'ms', peer: `median of ${f.assetsLater.length} more at 1 s intervals`, peerValue: medianAfter(f), higher: false });
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
  notes.push(`sdk: overhead over raw openapi-fetch ${(s.sdkUs - s.openapiFetchUs).toFixed(0)} µs per call (3 × 3,000 sequential calls per client, in blocks of 100 that take turns between the clients, median block; keep-alive, a local server answering a fixed FundingIntent)`);
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

await section('dashboard', async () => {
  const d = await benchDashboard();
  const budgets = JSON.parse(readFileSync(join(ROOT, 'bench/budgets.json'), 'utf8')) as Record<string, { target?: number }>;
  for (const f of d.files) {
    const js = f.name === 'dashboard.js';
    rows.push({ area: 'dashboard', figure: `${f.name} gzip`, fundkit: f.gz, unit: 'B', ...(js ? { peer: 'budget target', peerValue: budgets['dashboard-first-page']?.target ?? null, higher: false } : {}) });
  }
  rows.push({ area: 'dashboard', figure: 'navigation → first list rendered (Chromium, signed in)', fundkit: d.firstListMs, unit: 'ms' });
});

const fmt = (n: number, unit: string) => (unit === 'B' || unit === 'ledgers' || unit === 'ops' || n >= 100 ? Math.round(n).toLocaleString('en') : n.toFixed(1));
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
- HTTP load: autocannon, ${SERVER_CONNECTIONS} connections (server section), ${SECONDS} s per run, in the bench process; servers in their own processes (2 cores shared with the load generator)

${table}

Ratio: Fundkit ÷ peer. For req/s and ops/s higher is better; for µs, ms and bytes lower is better.
${worst ? `Weakest against its peer: **${worst.figure}** vs ${worst.peer} (${ratio(worst)!.toFixed(3)}×).` : ''}

## Commands
${commands.map((c) => `- \`${c}\``).join('\n')}

## Notes
${notes.map((n) => `- ${n}`).join('\n') || '- none'}
`;
/**
 * `--only a,b --merge`: the sections run replace their own rows of bench/RESULTS.md (the rest stays
 * as the last full run wrote it), and a note says which sections were re-run when.
 */
function merged(): string {
  const file = readFileSync(join(ROOT, 'bench/RESULTS.md'), 'utf8');
  const areas = new Set(rows.map((r) => r.area));
  const lines = file.split('\n');
  // an earlier subset's note is stale once every area it names has been re-run
  const stale = (line: string) => {
    const named = /^- ([a-z, -]+): re-run alone on /.exec(line)?.[1]?.split(', ');
    return named !== undefined && named.every((area) => areas.has(area));
  };
  const kept = lines.filter((line) => (!/^\| [a-z][a-z-]* \| /.test(line) || !areas.has(line.split(' | ')[0]!.slice(2)) || line.startsWith('| area |')) && !stale(line));
  // at the end of the first table (the full run's), where every area's rows are
  let last = kept.findIndex((line) => line.startsWith('| area |')) + 1;
  while (kept[last + 1]?.startsWith('| ')) last++;
  const fresh = table.split('\n').slice(2);
  kept.splice(last + 1, 0, ...fresh);
  // the weakest row: the old one if its row survived and is still the weakest, else the fresh one
  const weakestAt = kept.findIndex((line) => line.startsWith('Weakest against its peer: '));
  if (weakestAt !== -1) {
    const old = /^Weakest against its peer: \*\*(.+)\*\* vs .+ \(([\d.]+)×\)\.$/.exec(kept[weakestAt]!);
    const survives = old !== null && kept.some((line) => line.includes(`| ${old[1]} |`) && !fresh.includes(line) && !areas.has(line.split(' | ')[0]!.slice(2)));
    const weakestFresh = worst && (!survives || relative(worst)! < Number(old![2])) ? worst : null;
    if (weakestFresh) kept[weakestAt] = `Weakest against its peer: **${weakestFresh.figure}** vs ${weakestFresh.peer} (${ratio(weakestFresh)!.toFixed(3)}×).`;
    else if (!survives) kept.splice(weakestAt, 1);
  }
  const notesAt = kept.indexOf('## Notes');
  const stamp = `- ${[...areas].join(', ')}: re-run alone on ${machine().date} (\`pnpm bench --only ${[...areas].join(',')} --merge\`), ${notes.join('; ')}`;
  kept.splice(notesAt + 1, 0, stamp);
  return kept.join('\n');
}

const merge = process.argv.includes('--merge');
if (!only) writeFileSync(join(ROOT, 'bench/RESULTS.md'), md);
else if (merge && rows.length > 0) writeFileSync(join(ROOT, 'bench/RESULTS.md'), merged());
process.stdout.write(`\n${table}\n\n${notes.map((n) => `note: ${n}`).join('\n')}\n\n${!only ? 'written to bench/RESULTS.md' : merge ? 'merged into bench/RESULTS.md' : 'subset run: bench/RESULTS.md left as it was'}\n`);
