/**
 * At network speed: the built server (its own process, file database) on a sandbox ledger that
 * closes every 5 s (FUNDKIT_SANDBOX_LEDGER_SECONDS=5), so the treasury's pace is a real network's.
 *
 * - creates: 200 `POST /v1/funding-intents` from 50 concurrent clients (latency), and each intent's
 *   time until it is payable (AWAITING_PAYMENT; a create that found the pool empty answers CREATED);
 * - payments: 1,000 intents paid at once by 1,000 faucet-funded payers (test helper); ledgers from
 *   the last payment's ledger until every settlement transfer is in a ledger (all CREDITED);
 * - treasury operations per ledger: operations of transactions sourced by the treasury's channel
 *   accounts, per ledger, read back from the sandbox Horizon.
 *
 * "After" is the shipped configuration. "Before" is the same server configured the way the code
 * before the submission engine behaved (1 channel, 1 item per transaction, no pool), with smaller
 * counts, since it lands one treasury transaction per ledger.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { freePort, percentile, RUNS, startChild, type Child } from './lib.js';

const KEY = 'sk_test_benchNetworkKey0000000000001';
const ADDRESS = 'GDVEU3DD4KOFECV66VIHWEZOYX4ZKR3WV27L464SIIPOU2IUI3JCZA57';
export const LEDGER_SECONDS = 5;
/** the figures' counts (BENCH_NETWORK_SCALE < 1 shortens a dev run) */
const SCALE = Math.min(1, Number(process.env.BENCH_NETWORK_SCALE ?? 1));
export const COUNTS = {
  creates: Math.max(10, Math.round(200 * SCALE)), clients: 50, payers: Math.max(10, Math.round(1000 * SCALE)),
  beforeCreates: 20, beforePayers: 20,
};
export const WARM_UP_CREATES = COUNTS.creates * 5;
const BEFORE_ENV = { FUNDKIT_TREASURY_CHANNELS: '1', FUNDKIT_TREASURY_BATCH_ITEMS: '1', FUNDKIT_DEPOSIT_POOL_SIZE: '0' };

const log = (line: string) => process.stdout.write(`  ${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Server { child: Child; url: string; db: Database.Database; stop(): Promise<void> }

/** A server process over its own file database; `ledgerSeconds` 0 = the instant sandbox. */
export async function startServer(dir: string, ledgerSeconds: number, extra: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const env = {
    FUNDKIT_DB: join(dir, 'network.db'), FUNDKIT_DATA_DIR: dir, FUNDKIT_BOOTSTRAP: join(dir, 'bootstrap.json'),
    FUNDKIT_MASTER_KEY: 'ef'.repeat(32), LOG_LEVEL: 'warn', PORT: String(port),
    // the bench measures the server and the ledger, not the limiter
    FUNDKIT_RATE_LIMIT: '1000000', FUNDKIT_RATE_LIMIT_BURST: '1000000',
    FUNDKIT_SANDBOX_LEDGER_SECONDS: String(ledgerSeconds),
    // a transaction open 10 s froze a server here once: if it happens again, say where it began
    FUNDKIT_TX_WATCHDOG_MS: '10000',
    ...extra,
  };
  writeFileSync(env.FUNDKIT_BOOTSTRAP, JSON.stringify({ applications: [{ name: 'Network', secret_keys: [KEY], settlement_address: ADDRESS }] }));
  const child = await startChild(process.execPath, ['packages/server/bin/fundkit-server.js'], env, port, '/v1/assets');
  const db = new Database(env.FUNDKIT_DB, { readonly: true, fileMustExist: true });
  return {
    child, url: child.url, db,
    stop: async () => {
      db.close();
      await child.stop();
      const stuck = child.output.join('').split('[fundkit] ').filter((part) => part.startsWith('Error: a SQLite transaction'));
      for (const report of stuck) log(`server: ${report.split('\n').slice(0, 14).join('\n    ')}`);
    },
  };
}

/** Until no deposit batch is pending (none submitted and waiting for a close). */
async function quiet(server: Server, timeoutMs: number): Promise<void> {
  const until = performance.now() + timeoutMs;
  while ((server.db.prepare("SELECT COUNT(*) FROM deposit_batches WHERE status = 'PENDING'").pluck().get() as number) > 0) {
    if (performance.now() > until) throw new Error(`deposit batches still pending after ${timeoutMs / 1000} s`);
    await sleep(200);
  }
}

/** Pool accounts active on chain and not claimed, per asset (read from the server's database). */
function ready(server: Server): Record<string, number> {
  const rows = server.db.prepare('SELECT asset, COUNT(*) AS n FROM deposit_pool WHERE claimed_at IS NULL AND activated_at IS NOT NULL GROUP BY asset').all() as { asset: string; n: number }[];
  return Object.fromEntries(rows.map((r) => [r.asset, r.n]));
}

async function waitForPool(server: Server, size: number, timeoutMs: number): Promise<number> {
  const started = performance.now();
  for (;;) {
    const r = ready(server);
    if (['USDC', 'EURC', 'XLM'].every((a) => (r[a] ?? 0) >= size)) return (performance.now() - started) / 1000;
    if (performance.now() - started > timeoutMs) throw new Error(`deposit pool not filled to ${size} within ${timeoutMs / 1000} s: ${JSON.stringify(r)}`);
    await sleep(500);
  }
}

const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
/** Keep-alive connections, one per request in flight (no cap: 1,000 payments wait for their close at once): node:http costs the load generator less CPU per request than fetch, on the 2 cores it shares with the server. */
const agent = new http.Agent({ keepAlive: true });

function api<T>(url: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(url + path, { method, agent, headers: payload === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(payload) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode! >= 300) return reject(new Error(`${method} ${path} → ${res.statusCode} ${text.slice(0, 300)}`));
        try {
          resolve({ status: res.statusCode!, body: JSON.parse(text) as T });
        } catch (error) {
          reject(error);
        }
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

interface Intent { id: string; status: string; settlement?: { transfer_transaction_hash?: string | null } | null }
interface Created { id: string; status: string; latencyMs: number; startedAt: number; payableAt: number | null }

/** `n` creates from `clients` concurrent clients, each sending its next create when the last answered. */
async function createMany(url: string, n: number, clients: number, asset: string): Promise<Created[]> {
  const out: Created[] = [];
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(clients, n) }, async () => {
    while (next < n) {
      next++;
      const startedAt = performance.now();
      const { body } = await api<Intent>(url, 'POST', '/v1/funding-intents', { amount: '5.00', asset });
      const answeredAt = performance.now();
      out.push({ id: body.id, status: body.status, latencyMs: answeredAt - startedAt, startedAt, payableAt: body.status === 'AWAITING_PAYMENT' ? answeredAt : null });
    }
  }));
  return out;
}

/** Every intent of a status, through the list's pages (limit 100). */
async function listStatus(url: string, status: string): Promise<Intent[]> {
  const all: Intent[] = [];
  let cursor = '';
  for (;;) {
    const { body } = await api<{ data: Intent[]; next_cursor: string | null; has_more?: boolean }>(url, 'GET',
      `/v1/funding-intents?limit=100&status=${status}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    all.push(...body.data);
    if (!body.next_cursor || body.data.length === 0 || body.has_more === false) return all;
    cursor = body.next_cursor;
  }
}

/** Polls until every intent is AWAITING_PAYMENT, stamping the moment each is first seen so (poll every 200 ms). */
async function waitPayable(url: string, created: Created[], timeoutMs: number): Promise<void> {
  const until = performance.now() + timeoutMs;
  const byId = new Map(created.map((c) => [c.id, c]));
  while (created.some((c) => c.payableAt === null)) {
    if (performance.now() > until) throw new Error(`${created.filter((c) => c.payableAt === null).length} intents not payable within ${timeoutMs / 1000} s`);
    const seen = await listStatus(url, 'AWAITING_PAYMENT');
    const at = performance.now();
    for (const i of seen) {
      const c = byId.get(i.id);
      if (c && c.payableAt === null) c.payableAt = at;
    }
    await sleep(200);
  }
}

interface HorizonTx { hash: string; ledger: number; source_account: string; operation_count: number; paging_token: string; successful?: boolean }

const horizon = async <T>(url: string, path: string): Promise<T> => {
  const res = await fetch(`${url}/sandbox/horizon${path}`);
  if (res.status !== 200) throw new Error(`horizon ${path} → ${res.status} ${(await res.text()).slice(0, 200)}`);
  return res.json() as Promise<T>;
};

async function ledgerTransactions(url: string, seq: number): Promise<HorizonTx[]> {
  const all: HorizonTx[] = [];
  let cursor = '';
  for (;;) {
    const page = await horizon<{ _embedded: { records: HorizonTx[] } }>(url, `/ledgers/${seq}/transactions?limit=200${cursor ? `&cursor=${cursor}` : ''}`);
    const records = page._embedded.records;
    all.push(...records);
    if (records.length < 200) return all;
    cursor = records.at(-1)!.paging_token;
  }
}

const latestLedger = async (url: string) =>
  (await horizon<{ _embedded: { records: { sequence: number }[] } }>(url, '/ledgers?order=desc&limit=1'))._embedded.records[0]!.sequence;

/** Waits for the next ledger close; resolves with its sequence. */
async function nextClose(url: string): Promise<number> {
  const from = await latestLedger(url);
  for (;;) {
    await sleep(20);
    const now = await latestLedger(url);
    if (now > from) return now;
  }
}

export interface PaymentRun {
  intents: number;
  /** the ledger closed just before the payments were sent */
  sentAfterLedger: number;
  /** ledgers the payments were applied in (a ledger takes 1,000 operations at most) */
  paymentLedgers: number[];
  lastPaymentLedger: number;
  lastSettlementLedger: number;
  /** last settlement ledger − last payment ledger */
  ledgersToCredited: number;
  seconds: number;
  /** transactions that carried the settlements, and the channel accounts that were their sources */
  settlementTxs: number;
  channels: number;
  /** per ledger from the first payment's to the last settlement's: channel-sourced operations (all; settlements only) */
  perLedger: { ledger: number; treasuryOps: number; settlementOps: number; txs: number; allOps: number }[];
}

/** Pays every intent at once (one fresh faucet-funded payer each), then waits until all are CREDITED. */
async function payAll(server: Server, ids: string[], timeoutMs: number): Promise<PaymentRun> {
  const { url } = server;
  // sent right after a close, so all of them can be admitted before the next one
  const closed = await nextClose(url);
  const started = performance.now();
  const paid = await Promise.all(ids.map((id) => api<{ ledger: number }>(url, 'POST', `/v1/test_helpers/funding-intents/${id}/payments`, { amount: '5.00', asset: 'USDC' })));
  const paymentLedgers = [...new Set(paid.map((p) => p.body.ledger))].sort((a, b) => a - b);
  const lastPaymentLedger = paymentLedgers.at(-1)!;
  log(`${ids.length} payments applied in ledger(s) ${paymentLedgers.join(', ')} after ${((performance.now() - started) / 1000).toFixed(1)} s`);
  // progress from the database (read-only, no HTTP load on the server while it settles), then the API
  const until = performance.now() + timeoutMs;
  const count = server.db.prepare("SELECT COUNT(*) FROM funding_intents WHERE status = 'CREDITED'").pluck();
  while ((count.get() as number) < ids.length) {
    if (performance.now() > until) throw new Error(`${ids.length - (count.get() as number)} of ${ids.length} intents not CREDITED within ${timeoutMs / 1000} s`);
    await sleep(250);
  }
  const seconds = (performance.now() - started) / 1000;
  const want = new Set(ids);
  const credited = (await listStatus(url, 'CREDITED')).filter((i) => want.has(i.id));
  if (credited.length !== ids.length) throw new Error(`${ids.length - credited.length} of ${ids.length} paid intents are not CREDITED`);
  const hashes = new Set<string>();
  for (const i of credited) {
    let hash = i.settlement?.transfer_transaction_hash;
    if (!hash) hash = (await api<Intent>(url, 'GET', `/v1/funding-intents/${i.id}`)).body.settlement?.transfer_transaction_hash;
    if (!hash) throw new Error(`${i.id} is CREDITED without a settlement transfer hash`);
    hashes.add(hash);
  }
  const settlementTxs = await Promise.all([...hashes].map((h) => horizon<HorizonTx>(url, `/transactions/${h}`)));
  const channels = new Set(settlementTxs.map((t) => t.source_account));
  const lastSettlementLedger = Math.max(...settlementTxs.map((t) => t.ledger));
  const perLedger: PaymentRun['perLedger'] = [];
  for (let seq = paymentLedgers[0]!; seq <= lastSettlementLedger; seq++) {
    const txs = await ledgerTransactions(url, seq);
    const mine = txs.filter((t) => channels.has(t.source_account));
    perLedger.push({
      ledger: seq, txs: mine.length, allOps: txs.reduce((n, t) => n + t.operation_count, 0),
      treasuryOps: mine.reduce((n, t) => n + t.operation_count, 0),
      settlementOps: mine.filter((t) => hashes.has(t.hash)).reduce((n, t) => n + t.operation_count, 0),
    });
  }
  return {
    intents: ids.length, sentAfterLedger: closed, paymentLedgers, lastPaymentLedger, lastSettlementLedger, ledgersToCredited: lastSettlementLedger - lastPaymentLedger,
    seconds, settlementTxs: settlementTxs.length, channels: channels.size, perLedger,
  };
}

export interface CreateRun {
  creates: number; clients: number; latency: number[]; payable: number[]; createdStatus: Record<string, number>;
  /** first request sent → last answer */
  wallSeconds: number;
  /** every round's p95, when the figure is the median of several */
  roundsP95?: number[];
  /** latency p50 per answered status (AWAITING_PAYMENT: a pool account; CREATED: none left) */
  p50ByStatus: Record<string, number>;
}

/** A burst of `n` creates from `clients` clients; with `timeoutMs` (not null), then until every intent is payable. */
export async function createRun(url: string, n: number, clients: number, timeoutMs: number | null, asset = 'USDC'): Promise<{ run: CreateRun; created: Created[] }> {
  // warm-up: every client's keep-alive connection opened and the authenticated path run, without taking pool accounts
  for (let round = 0; round < 3; round++) await Promise.all(Array.from({ length: clients }, () => api(url, 'GET', '/v1/funding-intents?limit=1')));
  const t0 = performance.now();
  const created = await createMany(url, n, clients, asset);
  const wallSeconds = (performance.now() - t0) / 1000;
  if (timeoutMs !== null) await waitPayable(url, created, timeoutMs);
  const createdStatus: Record<string, number> = {};
  for (const c of created) createdStatus[c.status] = (createdStatus[c.status] ?? 0) + 1;
  const p50ByStatus = Object.fromEntries(Object.keys(createdStatus).map((st) => [st, percentile(created.filter((c) => c.status === st).map((c) => c.latencyMs), 50)]));
  return { created, run: { creates: n, clients, latency: created.map((c) => c.latencyMs), payable: timeoutMs === null ? [] : created.map((c) => c.payableAt! - c.startedAt), createdStatus, wallSeconds, p50ByStatus } };
}

/** A warm server's create bursts at a ledger's pace (shared by the network and create-pace sections). */
export interface PaceOptions {
  creates: number;
  clients: number;
  /** creates in EURC first (its own pool), until payable and the pools full again: the create path compiled by the JIT, as on a serving server */
  warmUp: number;
  /** ms to wait after a ledger close before round `round`'s burst (0: right after the close) */
  offsetMs: (round: number) => number;
  /** wait until every intent of a burst is payable (the create → payable figures) */
  payable: boolean;
  label: string;
}

export interface PaceBursts {
  /** the round with the median p95 (with every round's p95 in roundsP95) */
  median: CreateRun;
  rounds: CreateRun[];
  /** each round's delay after its ledger close, ms, in round order */
  offsets: number[];
  /** each round's ledger closes between its first create sent and its last answer */
  closesDuring: number[];
}

/**
 * RUNS bursts of creates on a warm server, each with the deposit pools full (20 per asset) and no
 * deposit batch pending, sent `offsetMs(round)` after a ledger close. The embedded ledger applies
 * each ledger's transactions at its close on the API's own event loop (~0.5 ms per deposit account
 * created; on testnet or pubnet that is stellar-core's work, in another process): the offset says
 * where in the ledger the burst falls.
 */
export async function paceBursts(server: Server, o: PaceOptions): Promise<PaceBursts> {
  if (o.warmUp > 0) await createRun(server.url, o.warmUp, o.clients, 300_000, 'EURC');
  const rounds: CreateRun[] = [];
  const offsets: number[] = [];
  const closesDuring: number[] = [];
  for (let round = 0; round < RUNS; round++) {
    await waitForPool(server, 20, 180_000);
    await quiet(server, 120_000);
    const closed = await nextClose(server.url);
    const offset = o.offsetMs(round);
    if (offset > 0) await sleep(offset);
    const before = offset > 0 ? await latestLedger(server.url) : closed;
    const { run } = await createRun(server.url, o.creates, o.clients, o.payable ? 240_000 : null);
    if (!o.payable) closesDuring.push((await latestLedger(server.url)) - before);
    log(`${o.label}: ${o.creates} creates ${(offset / 1000).toFixed(2)} s after a close${o.payable ? '' : ` (${closesDuring.at(-1)} close(s) during it)`}, p50 ${percentile(run.latency, 50).toFixed(1)} ms, p95 ${percentile(run.latency, 95).toFixed(1)} ms, p99 ${percentile(run.latency, 99).toFixed(1)} ms${o.payable ? `, payable p95 ${(percentile(run.payable, 95) / 1000).toFixed(1)} s` : ''} ${JSON.stringify(run.createdStatus)}`);
    rounds.push(run);
    offsets.push(offset);
  }
  const sorted = [...rounds].sort((a, b) => percentile(a.latency, 95) - percentile(b.latency, 95));
  return { median: { ...sorted[Math.floor(sorted.length / 2)]!, roundsP95: sorted.map((r) => percentile(r.latency, 95)) }, rounds, offsets, closesDuring };
}

export interface NetworkFigures {
  after: { create: CreateRun; pay: PaymentRun; poolFillSeconds: number; prefillSeconds: number };
  before: { create: CreateRun; pay: PaymentRun };
}

export async function benchNetwork(): Promise<NetworkFigures> {
  // After, creates: shipped defaults (pool 20 per asset, 8 channels, 100 items a transaction).
  let server = await startServer(mkdtempSync(join(tmpdir(), 'fundkit-bench-net-a-')), LEDGER_SECONDS, {});
  let afterCreate: CreateRun;
  let poolFillSeconds: number;
  try {
    poolFillSeconds = await waitForPool(server, 20, 180_000);
    log(`after: default pool (20 per asset) filled at ${LEDGER_SECONDS} s ledgers in ${poolFillSeconds.toFixed(1)} s`);
    const bursts = await paceBursts(server, { creates: COUNTS.creates, clients: COUNTS.clients, warmUp: WARM_UP_CREATES, offsetMs: () => 0, payable: true, label: 'after' });
    afterCreate = bursts.median;
  } finally {
    await server.stop();
  }

  // Before: the same server configured as the old code behaved; creates, then the same intents paid.
  server = await startServer(mkdtempSync(join(tmpdir(), 'fundkit-bench-net-b-')), LEDGER_SECONDS, BEFORE_ENV);
  let before: NetworkFigures['before'];
  try {
    // warm-up: the channel account and one deposit account, so the measured creates do not pay for them
    await createRun(server.url, 1, 1, 60_000);
    const { run, created } = await createRun(server.url, COUNTS.beforeCreates, COUNTS.beforeCreates, 240_000);
    log(`before: ${run.creates} creates, payable p95 ${(percentile(run.payable, 95) / 1000).toFixed(1)} s ${JSON.stringify(run.createdStatus)}`);
    const pay = await payAll(server, created.slice(0, COUNTS.beforePayers).map((c) => c.id), 300_000);
    log(`before: ${pay.intents} paid, CREDITED ${pay.ledgersToCredited} ledgers after the last payment's`);
    before = { create: run, pay };
  } finally {
    await server.stop();
  }

  // After, payments: a pool of 1,000 prepared ahead (on the instant ledger: the pool worker lands
  // one batch of 18 accounts a ledger, so 3 × 1,000 accounts would take ~170 ledgers at 5 s).
  const dir = mkdtempSync(join(tmpdir(), 'fundkit-bench-net-c-'));
  const pool = { FUNDKIT_DEPOSIT_POOL_SIZE: String(COUNTS.payers) };
  const prefillStarted = performance.now();
  server = await startServer(dir, 0, pool);
  let prefillSeconds: number;
  try {
    await waitForPool(server, COUNTS.payers, 300_000);
    prefillSeconds = (performance.now() - prefillStarted) / 1000;
    log(`after: pool of ${COUNTS.payers} per asset prepared on the instant ledger in ${prefillSeconds.toFixed(1)} s`);
  } finally {
    await server.stop();
  }
  server = await startServer(dir, LEDGER_SECONDS, pool);
  let pay: PaymentRun;
  try {
    const created = await createMany(server.url, COUNTS.payers, COUNTS.clients, 'USDC');
    const notPayable = created.filter((c) => c.status !== 'AWAITING_PAYMENT').length;
    if (notPayable > 0) throw new Error(`${notPayable} of ${COUNTS.payers} intents were not AWAITING_PAYMENT at create (pool too small)`);
    pay = await payAll(server, created.map((c) => c.id), 300_000);
    log(`after: ${pay.intents} paid, CREDITED ${pay.ledgersToCredited} ledgers after the last payment's; max treasury ops a ledger ${Math.max(...pay.perLedger.map((l) => l.treasuryOps))}`);
  } finally {
    await server.stop();
  }
  return { after: { create: afterCreate, pay, poolFillSeconds, prefillSeconds }, before };
}
