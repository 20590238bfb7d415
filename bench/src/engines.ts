/**
 * Issue 16: create and list throughput on PostgreSQL with 1, 2 and 3 server processes, beside
 * SQLite with one. Every configuration gets a fresh database seeded with ENGINE_SEED intents and
 * the built server on the instant sandbox ledger (a clocked sandbox ledger is one process's). The
 * load is SERVER_CONNECTIONS connections split across the processes (one autocannon each, as a
 * client-side round robin), RUNS runs of SECONDS, medians. PostgreSQL is a throwaway cluster
 * (initdb + pg_ctl, as in the tests); without PostgreSQL installed the section says so and skips.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { findPostgresBin, startPostgresCluster } from '../../packages/server/test/helpers/postgres-cluster.js';
import { freePort, median, RUNS, SECONDS, startChild, type Child, type Load } from './lib.js';
import { ADDRESS, auth, CREATE, KEY, seed, SERVER_CONNECTIONS } from './server.js';
import { benchStreams, PUBLISHABLE_KEY, STREAMS, type StreamCost } from './streams.js';

export const ENGINE_SEED = 10_000;
const LIST: Load = { path: '/v1/funding-intents?limit=50', headers: auth };

export interface EngineFigure { engine: string; processes: number; load: 'create' | 'list'; rps: number; p99: number; non2xx: number; statuses: Record<string, number> }

/** One run: every process loaded at once, its share of the connections; 2xx per second summed, the worst p99. */
type Run = { rps: number; p99: number; non2xx: number; statuses: Record<string, number> };

async function splitCannon(urls: string[], load: Load): Promise<Run> {
  const results = await Promise.all(urls.map((url, i) => autocannon({
    url: url + load.path, method: load.method ?? 'GET', headers: load.headers, body: load.body, duration: SECONDS,
    connections: Math.floor(SERVER_CONNECTIONS / urls.length) + (i < SERVER_CONNECTIONS % urls.length ? 1 : 0),
  })));
  return {
    rps: results.reduce((sum, r) => sum + r['2xx'], 0) / SECONDS,
    p99: Math.max(...results.map((r) => r.latency.p99)),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
    statuses: addStatuses(results.map((r) => Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([code, stat]) => [code, stat?.count ?? 0])))),
  };
}

/** Non-2xx answers by status code, summed over several counts. */
function addStatuses(counts: Array<Record<string, number>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const byCode of counts) for (const [code, n] of Object.entries(byCode)) if (!code.startsWith('2')) out[code] = (out[code] ?? 0) + n;
  return out;
}

async function measure(engine: string, children: Child[]): Promise<EngineFigure[]> {
  const figures: EngineFigure[] = [];
  // lists first: creates add rows the lists would otherwise see
  for (const [name, load] of [['list', LIST], ['create', CREATE]] as const) {
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await splitCannon(children.map((c) => c.url), load));
    const figure = { engine, processes: children.length, load: name, rps: median(runs.map((r) => r.rps)), p99: median(runs.map((r) => r.p99)), non2xx: runs.reduce((s, r) => s + r.non2xx, 0),
      statuses: addStatuses(runs.map((r) => r.statuses)) };
    process.stdout.write(`  ${engine} × ${children.length}, ${name}: ${figure.rps.toFixed(0)} req/s, p99 ${figure.p99.toFixed(0)} ms${figure.non2xx ? `, ${figure.non2xx} non-2xx` : ''}\n`);
    figures.push(figure);
  }
  return figures;
}

const serverArgs = ['packages/server/bin/fundkit-server.js'];

async function startProcesses(env: Record<string, string>, count: number): Promise<Child[]> {
  const children: Child[] = [];
  // one after the other: the first migrates, the others find the schema current
  for (let i = 0; i < count; i++) {
    const port = await freePort();
    children.push(await startChild(process.execPath, serverArgs, { ...env, PORT: String(port) }, port, '/v1/assets'));
  }
  return children;
}

/** A migrated PostgreSQL database with the bench application and ENGINE_SEED intents cloned in SQL. */
async function seedPostgres(clusterUrl: string, name: string): Promise<Record<string, string>> {
  const admin = new pg.Client({ connectionString: clusterUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  const dir = mkdtempSync(join(tmpdir(), 'fundkit-bench-pg-'));
  const env = {
    FUNDKIT_DATABASE_URL: url.toString(), FUNDKIT_DATA_DIR: dir, FUNDKIT_BOOTSTRAP: join(dir, 'bootstrap.json'), FUNDKIT_MASTER_KEY: 'cd'.repeat(32),
    LOG_LEVEL: 'warn', FUNDKIT_RATE_LIMIT: '1000000', FUNDKIT_RATE_LIMIT_BURST: '1000000', FUNDKIT_MAX_OPEN_INTENTS: '10000000',
  };
  writeFileSync(env.FUNDKIT_BOOTSTRAP, JSON.stringify({ applications: [{ name: 'Bench', secret_keys: [KEY], publishable_keys: [PUBLISHABLE_KEY], settlement_address: ADDRESS }] }));
  const [first] = await startProcesses(env, 1);
  const model = await (await fetch(`${first!.url}/v1/funding-intents`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: CREATE.body })).json() as { id: string };
  await first!.stop();
  const db = new pg.Client({ connectionString: env.FUNDKIT_DATABASE_URL });
  await db.connect();
  try {
    const columns = (await db.query<{ column_name: string }>("SELECT column_name FROM information_schema.columns WHERE table_name = 'funding_intents'")).rows
      .map((c) => c.column_name).filter((c) => !['id', 'created_at', 'updated_at'].includes(c));
    await db.query(`INSERT INTO funding_intents (id, created_at, updated_at, ${columns.join(', ')})
      SELECT 'fi_bench' || lpad(g::text, 20, '0'), t.at, t.at, ${columns.map((c) => `m.${c}`).join(', ')}
      FROM funding_intents m, generate_series(1, $2::int) g,
        LATERAL (SELECT to_char((now() - ($2::int - g) * interval '1 second') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at) t
      WHERE m.id = $1`, [model.id, ENGINE_SEED]);
    await db.query('ANALYZE');
  } finally {
    await db.end();
  }
  return env;
}

export async function benchEngines(): Promise<{ figures: EngineFigure[]; streams: { none: StreamCost; open: StreamCost } | null; notes: string[] }> {
  const notes: string[] = [];
  const figures: EngineFigure[] = [];
  let streams: { none: StreamCost; open: StreamCost } | null = null;
  const sqlite = await seed(mkdtempSync(join(tmpdir(), 'fundkit-bench-engines-')), ENGINE_SEED);
  const one = await startProcesses(sqlite.env, 1);
  try {
    figures.push(...await measure('SQLite', one));
  } finally {
    await Promise.all(one.map((c) => c.stop()));
  }
  const bin = findPostgresBin();
  if (!bin) {
    notes.push('engines: PostgreSQL is not installed (apt-get install postgresql): its rows were skipped');
    return { figures, streams, notes };
  }
  // PostgreSQL's durability defaults: every commit flushed to disk before it answers
  const cluster = await startPostgresCluster(bin, { durable: true });
  try {
    for (const processes of [1, 2, 3]) {
      const env = await seedPostgres(cluster.url, `bench_${processes}`);
      const children = await startProcesses(env, processes);
      try {
        figures.push(...await measure('PostgreSQL', children));
      } finally {
        await Promise.all(children.map((c) => c.stop()));
      }
    }
    // on a server of its own: after the creates above, the pipeline works for minutes on the
    // accounts they emptied the pool of, and nothing would be idle
    const env = await seedPostgres(cluster.url, 'bench_streams');
    const [server] = await startProcesses(env, 1);
    try {
      streams = await benchStreams(server!, env.FUNDKIT_DATABASE_URL!, cluster.pid());
    } finally {
      await server!.stop();
    }
  } finally {
    cluster.stop();
  }
  notes.push(`engines: a fresh database per configuration with ${ENGINE_SEED.toLocaleString('en')} intents; the built server on the instant sandbox ledger (the pipeline, and so the deposit accounts' ledger work, on one process: the lease holder); ${SERVER_CONNECTIONS} connections split across the processes; PostgreSQL ${bin.split('/').at(-2)} from initdb with its durability defaults (fsync and synchronous_commit on: a commit answers once its WAL is on disk, where SQLite's WAL with synchronous=NORMAL leaves the fsync to checkpoints), on the same machine (its cores shared with the servers and the load generator); the request path's transactions (creates, idempotency keys, rate-limit buckets, request logs, webhook claims) lock only their own rows on PostgreSQL, while the pipeline's still take one writer lock (as SQLite's single writer)`);
  return { figures, streams, notes };
}
