/**
 * HTTP throughput of the reference server (file database, 100k seeded intents, rate limit raised)
 * against a bare Express hello-world and the Prism mock of the same spec, with autocannon.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createServer } from '@fundkit/server';
import autocannon from 'autocannon';
import { freePort, median, ROOT, RUNS, SECONDS, startChild, type Child, type Load } from './lib.js';

export const SEED = 100_000;
export const KEY = 'sk_test_benchSecretKey000000000000001';
export const ADDRESS = 'GDVEU3DD4KOFECV66VIHWEZOYX4ZKR3WV27L464SIIPOU2IUI3JCZA57';
export const auth = { authorization: `Bearer ${KEY}` };

/** the issue's load: 32 concurrent connections (the shared CONNECTIONS of lib.ts stays for the other sections) */
export const SERVER_CONNECTIONS = 32;
/** what BENCH_BEFORE holds, for the notes (e.g. the commit) */
const BEFORE_LABEL = process.env.BENCH_BEFORE_LABEL ?? 'the last landed commit';
export const PACED_LEDGER_SECONDS = 5;
export const CREATE: Load = { method: 'POST', path: '/v1/funding-intents', headers: { ...auth, 'content-type': 'application/json' }, body: '{"amount":"25.00","asset":"USDC"}' };
/** A muxed intent: an M… address on the collection account, no deposit account (no pool, no chain work). */
export const CREATE_MUXED: Load = { ...CREATE, body: '{"amount":"25.00","asset":"USDC","deposit_type":"muxed"}' };

/** One autocannon run at SERVER_CONNECTIONS: requests per second (2xx only) and p50/p99 latency in ms. */
async function cannon(url: string, load: Load): Promise<{ rps: number; p50: number; p99: number; non2xx: number }> {
  const result = await autocannon({
    url: url + load.path, method: load.method ?? 'GET', headers: load.headers, body: load.body,
    connections: SERVER_CONNECTIONS, duration: SECONDS,
  });
  return { rps: result['2xx'] / SECONDS, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx };
}

export interface ServerFigure { name: string; fundkit: number; express: number; prism: number | null; fundkitP99: number; before: number | null; beforeP99: number | null }

/** A bench server's settings in `dir` (file database, bootstrap with the bench key written there). */
function benchEnv(dir: string) {
  const env = {
    FUNDKIT_DB: join(dir, 'bench.db'), FUNDKIT_DATA_DIR: dir, FUNDKIT_BOOTSTRAP: join(dir, 'bootstrap.json'),
    FUNDKIT_MASTER_KEY: 'cd'.repeat(32), LOG_LEVEL: 'warn',
    // the bench measures the server, not the limiter
    FUNDKIT_RATE_LIMIT: '1000000', FUNDKIT_RATE_LIMIT_BURST: '1000000',
    // the seeded intents are open and unpaid: above the default cap (10,000), which still counts them
    FUNDKIT_MAX_OPEN_INTENTS: '10000000',
  };
  writeFileSync(env.FUNDKIT_BOOTSTRAP, JSON.stringify({ applications: [{ name: 'Bench', secret_keys: [KEY], settlement_address: ADDRESS }] }));
  return env;
}

/** Migrations and the bootstrap through the server itself, then 100k intents cloned in one SQL transaction. */
export async function seed(dir: string, count = SEED): Promise<{ env: Record<string, string>; seconds: number }> {
  const env = benchEnv(dir);
  const started = performance.now();
  const server = await createServer({ env });
  const { url } = await server.listen(0, '127.0.0.1');
  const model = await (await fetch(`${url}/v1/funding-intents`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"amount":"25.00","asset":"USDC"}' })).json() as { id: string };
  await server.close();
  cloneIntent(env.FUNDKIT_DB, model.id, count);
  return { env, seconds: (performance.now() - started) / 1000 };
}

/**
 * The same seed through another build's own binary (`BENCH_BEFORE`: a checkout of the last landed
 * commit, built): its migrations, its bootstrap, then the same clone of one intent.
 */
async function seedWithBuild(dir: string, root: string, count = SEED): Promise<{ env: Record<string, string>; seconds: number }> {
  const started = performance.now();
  const env = benchEnv(dir);
  const port = await freePort();
  const child = await startChild(process.execPath, [join(root, 'packages/server/bin/fundkit-server.js')], { ...env, PORT: String(port) }, port, '/v1/assets');
  let model: { id: string };
  try {
    model = await (await fetch(`${child.url}/v1/funding-intents`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"amount":"25.00","asset":"USDC"}' })).json() as { id: string };
  } finally {
    await child.stop();
  }
  cloneIntent(env.FUNDKIT_DB, model.id, count);
  return { env, seconds: (performance.now() - started) / 1000 };
}

/** `count` copies of one intent, in one SQL transaction, one second apart. */
function cloneIntent(file: string, modelId: string, count: number): void {
  const db = new Database(file);
  const columns = (db.prepare('PRAGMA table_info(funding_intents)').all() as { name: string }[]).map((c) => c.name).filter((c) => !['id', 'created_at', 'updated_at'].includes(c));
  const insert = db.prepare(`INSERT INTO funding_intents (id, created_at, updated_at, ${columns.join(', ')})
    SELECT @id, @at, @at, ${columns.join(', ')} FROM funding_intents WHERE id = @model`);
  const base = Date.now() - count * 1000;
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const at = new Date(base + i * 1000).toISOString();
      insert.run({ id: `fi_bench${String(i).padStart(20, '0')}`, at, model: modelId });
    }
  })();
  db.close();
}

/** One sign-in with the sandbox's development account (`<dataDir>/dashboard-account.json`), in ms; null without one. */
async function signInMs(url: string, dataDir: string): Promise<number | null> {
  const path = join(dataDir, 'dashboard-account.json');
  if (!existsSync(path)) return null;
  const { email, password } = JSON.parse(readFileSync(path, 'utf8')) as { email: string; password: string };
  const started = performance.now();
  const res = await fetch(`${url}/v1/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`sign-in answered ${res.status}`);
  return performance.now() - started;
}

export const SIGN_INS = 7;

/** Sign-ins one at a time, this build and the before build taking turns: medians in ms. */
async function signInCost(fundkit: { url: string; dir: string }, before: { url: string; dir: string } | null): Promise<{ fundkit: number | null; before: number | null }> {
  const runs = { fundkit: [] as number[], before: [] as number[] };
  for (let i = 0; i < SIGN_INS; i++) {
    const f = await signInMs(fundkit.url, fundkit.dir);
    if (f !== null) runs.fundkit.push(f);
    const b = before ? await signInMs(before.url, before.dir) : null;
    if (b !== null) runs.before.push(b);
  }
  return { fundkit: runs.fundkit.length ? median(runs.fundkit) : null, before: runs.before.length ? median(runs.before) : null };
}

/** The cursor of page 1,000 (limit 100): keyset pagination must make it as cheap as page 1. */
async function deepCursor(url: string): Promise<string> {
  let cursor = '';
  for (let page = 1; page < 1000; page++) {
    const body = await (await fetch(`${url}/v1/funding-intents?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers: auth })).json() as { next_cursor: string };
    cursor = body.next_cursor;
  }
  return cursor;
}

/**
 * The hello-world again, served as the reference server serves its app (requests born with the
 * app's prototypes): the same requests, taking turns with the plain one, medians of RUNS.
 */
async function classesFloor(expressUrl: string): Promise<string> {
  const port = await freePort();
  const peer = await startChild(process.execPath, ['--import', 'tsx', 'bench/src/peers/express-hello-classes.ts'], { PORT: String(port) }, port);
  try {
    const plain: number[] = [];
    const classes: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      plain.push((await cannon(expressUrl, { path: '/' })).rps);
      classes.push((await cannon(peer.url, { path: '/' })).rps);
    }
    return `Express hello-world served with requests and responses born with the app's prototypes (bench/src/peers/express-hello-classes.ts, as packages/server/src/http/node-server.ts serves the reference server): ${median(classes).toFixed(0)} req/s against ${median(plain).toFixed(0)} req/s for the plain hello-world, the floor of the ratios above; most of Express's own cost a request is its prototype switch`;
  } finally {
    await peer.stop();
  }
}

/**
 * One load, RUNS times, against Fundkit then its peers in turn: medians. `settle` runs after each
 * of Fundkit's runs, before its peers': work the run left behind (the deposit accounts of a burst
 * of creates) is done before a peer shares the cores.
 */
async function measure(name: string, load: Load, fundkitUrl: string, expressUrl: string, prismUrl: string | null, notes: string[], settle?: () => Promise<void>, beforeUrl: string | null = null, beforeLoad: Load = load): Promise<ServerFigure> {
  const runs = { fundkit: [] as number[], express: [] as number[], prism: [] as number[], p99: [] as number[], before: [] as number[], beforeP99: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    const f = await cannon(fundkitUrl, load);
    if (f.non2xx > 0) notes.push(`${name}: ${f.non2xx} non-2xx answers from the reference server in run ${i + 1}`);
    runs.fundkit.push(f.rps);
    runs.p99.push(f.p99);
    await settle?.();
    if (beforeUrl) {
      const b = await cannon(beforeUrl, beforeLoad);
      if (b.non2xx > 0) notes.push(`${name}: ${b.non2xx} non-2xx answers from the before build in run ${i + 1}`);
      runs.before.push(b.rps);
      runs.beforeP99.push(b.p99);
    }
    runs.express.push((await cannon(expressUrl, { ...load, path: '/' })).rps);
    if (prismUrl) runs.prism.push((await cannon(prismUrl, load)).rps);
  }
  const figure = {
    name, fundkit: median(runs.fundkit), express: median(runs.express), prism: prismUrl ? median(runs.prism) : null, fundkitP99: median(runs.p99),
    before: beforeUrl ? median(runs.before) : null, beforeP99: beforeUrl ? median(runs.beforeP99) : null,
  };
  process.stdout.write(`  ${name}: fundkit ${figure.fundkit.toFixed(0)} req/s, p99 ${figure.fundkitP99.toFixed(0)} ms, express ${figure.express.toFixed(0)} req/s\n`);
  return figure;
}

export async function benchServer(): Promise<{ figures: ServerFigure[]; notes: string[]; commands: string[]; signIn: { fundkit: number | null; before: number | null } }> {
  const notes: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'fundkit-bench-'));
  const seeded = await seed(dir);
  notes.push(`seeded ${SEED.toLocaleString('en')} intents in ${seeded.seconds.toFixed(1)} s (server migrations + one SQL transaction)`);
  const ports = { fundkit: await freePort(), express: await freePort(), prism: await freePort() };
  // At a real ledger's pace (5 s closes, 1,000 operations a ledger): the embedded ledger then does
  // the chain's work for deposit accounts at the rate a network would take them, as Horizon does
  // in its own process in production. The instant ledger (the default, for tests) is measured
  // on creates by benchInstantCreate.
  const paced = { ...seeded.env, FUNDKIT_SANDBOX_LEDGER_SECONDS: String(PACED_LEDGER_SECONDS) };
  const fundkit = await startChild(process.execPath, ['packages/server/bin/fundkit-server.js'], { ...paced, PORT: String(ports.fundkit) }, ports.fundkit, '/v1/assets');
  const express = await startChild(process.execPath, ['--import', 'tsx', 'bench/src/peers/express-hello.ts'], { PORT: String(ports.express) }, ports.express);
  // BENCH_BEFORE: the last landed build beside this one, on its own copy of the same seed, in the same runs
  let before: Child | null = null;
  let beforeDir = '';
  if (process.env.BENCH_BEFORE) {
    const root = process.env.BENCH_BEFORE;
    beforeDir = mkdtempSync(join(tmpdir(), 'fundkit-bench-before-'));
    const seededBefore = await seedWithBuild(beforeDir, root);
    const port = await freePort();
    before = await startChild(process.execPath, [join(root, 'packages/server/bin/fundkit-server.js')], { ...seededBefore.env, FUNDKIT_SANDBOX_LEDGER_SECONDS: String(PACED_LEDGER_SECONDS), PORT: String(port) }, port, '/v1/assets');
    notes.push(`server, before: the build at ${root} (${BEFORE_LABEL}), its own database seeded the same way through its own migrations, started as the reference server is, measured in the same runs (reference, before, Express, Prism in turn)`);
  }
  let prism: Child | null = null;
  try {
    prism = await startChild(join(ROOT, 'bench/node_modules/.bin/prism'), ['mock', 'spec/openapi.yaml', '-h', '127.0.0.1', '-p', String(ports.prism)], {}, ports.prism, '/v1/assets');
  } catch (error) {
    notes.push(`Prism did not start: ${(error as Error).message.split('\n')[0]}`);
  }
  const commands = [
    `node packages/server/bin/fundkit-server.js  (FUNDKIT_DB=<file>, FUNDKIT_SANDBOX_LEDGER_SECONDS=${PACED_LEDGER_SECONDS}, FUNDKIT_RATE_LIMIT=1000000, LOG_LEVEL=warn)`,
    'node --import tsx bench/src/peers/express-hello.ts',
    `prism mock spec/openapi.yaml -p ${ports.prism}`,
    `autocannon: ${SERVER_CONNECTIONS} connections × ${SECONDS} s per run, ${RUNS} runs, median`,
  ];
  try {
    const cursor = await deepCursor(fundkit.url);
    // the same page 1,000 of the before build (keyset cursors are opaque to the bench)
    const beforeCursor = before ? await deepCursor(before.url) : '';
    const retrieveId = `fi_bench${String(SEED / 2).padStart(20, '0')}`;
    const loads: { name: string; load: Load; new?: true }[] = [
      { name: 'GET /v1/assets (req/s)', load: { path: '/v1/assets', headers: auth } },
      { name: 'retrieve intent (req/s)', load: { path: `/v1/funding-intents/${retrieveId}`, headers: auth } },
      { name: 'list page 1, limit 50 (req/s)', load: { path: '/v1/funding-intents?limit=50', headers: auth } },
      { name: 'list page 1, limit 100 (req/s)', load: { path: '/v1/funding-intents?limit=100', headers: auth } },
      { name: `list page 1,000 of ${SEED / 1000}k (req/s)`, load: { path: `/v1/funding-intents?limit=100&cursor=${encodeURIComponent(cursor)}`, headers: auth } },
      // last: creates add rows the lists would otherwise see
      { name: 'create intent (req/s)', load: CREATE },
      // new in this build: the before build answers 400 to deposit_type, so it has no figure here
      { name: 'create muxed intent (req/s)', load: CREATE_MUXED, new: true },
    ];
    notes.push(`server: the reference server runs on a sandbox ledger closing every ${PACED_LEDGER_SECONDS} s (FUNDKIT_SANDBOX_LEDGER_SECONDS=${PACED_LEDGER_SECONDS}), the pace of a real network: creates that find the deposit pool empty answer CREATED and their accounts are created in batches at the ledger's pace, as against testnet or pubnet, where that chain work happens in Horizon and stellar-core, not in this process. The instant sandbox ledger (the default, for tests and the quickstart) is measured on creates in its own section (create-instant)`);
    const figures: ServerFigure[] = [];
    for (const { name, load, new: isNew } of loads) {
      const beforeLoad = load.path.includes('cursor=') ? { ...load, path: load.path.replace(/cursor=[^&]*/, `cursor=${encodeURIComponent(beforeCursor)}`) } : load;
      figures.push(await measure(name, load, fundkit.url, express.url, prism?.url ?? null, notes, undefined, before && !isNew ? before.url : null, beforeLoad));
    }
    notes.push(await classesFloor(express.url));
    const signIn = await signInCost({ url: fundkit.url, dir }, before ? { url: before.url, dir: beforeDir } : null);
    notes.push(`sign-in: POST /v1/auth/sign-in with the sandbox's development account (dashboard-account.json), ${SIGN_INS} one at a time, taking turns with the before build: median ${signIn.fundkit?.toFixed(0) ?? 'n/a (no development account)'} ms, before ${signIn.before?.toFixed(0) ?? 'n/a'} ms`);
    return { figures, notes, commands, signIn };
  } finally {
    await fundkit.stop();
    await express.stop();
    await prism?.stop();
    await before?.stop();
  }
}

/** The deposit accounts waiting to be created, as an operator reads them (GET /metrics). */
async function accountsWaiting(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const line = text.split('\n').find((l) => l.startsWith('fundkit_queue_depth{queue="deposit_accounts"}'));
  if (!line) throw new Error('GET /metrics has no fundkit_queue_depth{queue="deposit_accounts"}');
  return Number(line.split(' ')[1]);
}

const METRICS_TOKEN = 'bench-metrics-token';

export interface Drain { accounts: number; seconds: number }

/** Waits until no deposit account waits (polled every 500 ms); what there was and how long it took. */
async function drain(url: string): Promise<Drain> {
  const started = performance.now();
  const accounts = await accountsWaiting(url);
  for (let left = accounts; left > 0; left = await accountsWaiting(url)) {
    if (performance.now() - started > 600_000) throw new Error(`${left} deposit accounts still waiting after 10 minutes`);
    await new Promise((r) => setTimeout(r, 500));
  }
  return { accounts, seconds: (performance.now() - started) / 1000 };
}

/**
 * Creates on the default sandbox (the instant ledger: every deposit account's transaction applied
 * as soon as it is submitted) at saturation, beside the Express hello-world in the same run: the
 * built server over its own file database of SEED seeded intents, autocannon at SERVER_CONNECTIONS.
 * A create at saturation answers with a key made ahead (PROVISIONING) and its account is created
 * once the burst has passed (DepositPool.mayPlan): after each run the bench waits for those
 * accounts, so the Express run that follows has the cores to itself, and reports how fast they
 * were created.
 */
export async function benchInstantCreate(): Promise<{ figure: ServerFigure; drains: Drain[]; notes: string[]; commands: string[] }> {
  const notes: string[] = [];
  const seeded = await seed(mkdtempSync(join(tmpdir(), 'fundkit-bench-instant-')));
  const ports = { fundkit: await freePort(), express: await freePort() };
  const instant = await startChild(process.execPath, ['packages/server/bin/fundkit-server.js'], { ...seeded.env, FUNDKIT_METRICS_TOKEN: METRICS_TOKEN, PORT: String(ports.fundkit) }, ports.fundkit, '/v1/assets');
  const express = await startChild(process.execPath, ['--import', 'tsx', 'bench/src/peers/express-hello.ts'], { PORT: String(ports.express) }, ports.express);
  const drains: Drain[] = [];
  try {
    const figure = await measure('create intent, instant sandbox ledger (req/s)', CREATE, instant.url, express.url, null, notes, async () => { drains.push(await drain(instant.url)); });
    const drained = drains.map((d) => `${d.accounts.toLocaleString('en')} in ${d.seconds.toFixed(1)} s`).join(', ');
    notes.push(`create-instant: the built server on the default sandbox (no FUNDKIT_SANDBOX_LEDGER_SECONDS: the instant ledger, in its own thread, which applies each deposit-account transaction as it is submitted), its own file database of ${SEED.toLocaleString('en')} seeded intents (seeded in ${seeded.seconds.toFixed(1)} s), FUNDKIT_RATE_LIMIT=1000000, LOG_LEVEL=warn; autocannon ${SERVER_CONNECTIONS} connections × ${SECONDS} s, ${RUNS} runs taking turns with the Express hello-world, medians; 2 shared cores with the load generator: noisy. While the creates saturate the server, their deposit accounts wait (one batch of 18 a second goes out); after each run the bench waited until GET /metrics showed none waiting (fundkit_queue_depth{queue="deposit_accounts"} = 0) before the Express run: ${drained}. Issue 27's before: 425 req/s, 0.06×, p99 335 ms (bench/README.md)`);
    return {
      figure, drains, notes,
      commands: [
        'cd bench && npx tsx src/run.ts --only create-instant --merge',
        'node packages/server/bin/fundkit-server.js  (create-instant: FUNDKIT_DB=<file>, no FUNDKIT_SANDBOX_LEDGER_SECONDS, FUNDKIT_RATE_LIMIT=1000000, LOG_LEVEL=warn) beside node --import tsx bench/src/peers/express-hello.ts',
      ],
    };
  } finally {
    await instant.stop();
    await express.stop();
  }
}
