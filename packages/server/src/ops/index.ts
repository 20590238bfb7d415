/**
 * The operator's surface, outside /v1 and its credentials: GET /healthz (alive: the event loop
 * turns), GET /readyz (ready for traffic: database, network, observer, treasury) and GET /metrics
 * (Prometheus text). What they read of the network is cached a few seconds, so probes and scrapes
 * never multiply the requests a public Horizon counts against its rate limit.
 */
import { Router, type Request } from 'express';
import type { Config } from '../config.js';
import type { Sql } from '../db/sql.js';
import type { Pipeline } from '../pipeline/index.js';
import type { AccountView } from '../stellar/index.js';
import { secretsEqual } from '../lib/crypto.js';
import { readiness } from './health.js';
import { OpsRepo } from './repo.js';
import type { Telemetry } from './telemetry.js';

export { Telemetry } from './telemetry.js';

export interface OpsDeps {
  config: Config;
  sql: Sql;
  pipeline: Pipeline;
  telemetry: Telemetry;
  started(): boolean;
  leads(): boolean;
}

/** Network reads (the tip, the treasury) are shared by probes and scrapes for this long. */
const NETWORK_CACHE_MS = 5_000;
const BASE_RESERVE = 5_000_000n;
/** What one more pool account costs the treasury at most: the account, its trustline and co-signer (4 reserves), and fees. */
const POOL_ACCOUNT_STROOPS = 4n * BASE_RESERVE + 100_000n;
const POOL_ASSETS = ['USDC', 'EURC', 'XLM'] as const;

function cached<T>(read: () => Promise<T>): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | null = null;
  return () => {
    if (!last || Date.now() - last.at > NETWORK_CACHE_MS) {
      const value = read();
      last = { at: Date.now(), value };
      // a failure is not kept: the next probe asks again
      value.catch(() => { if (last?.value === value) last = null; });
    }
    return last.value;
  };
}

/** XLM above the minimum balance ((2 + subentries + sponsoring − sponsored) base reserves). */
function headroomOf(account: AccountView): { balance: bigint; available: bigint } {
  const native = account.balances.find((b) => b.asset.issuer === null)?.balance ?? 0n;
  const minimum = BigInt(2 + account.subentryCount + account.numSponsoring - account.numSponsored) * BASE_RESERVE;
  return { balance: native, available: native - minimum };
}

export interface Ops {
  router: Router;
}

export function createOps(deps: OpsDeps): Ops {
  const { pipeline, telemetry, config } = deps;
  const repo = new OpsRepo(deps.sql);
  const network = pipeline.stellar?.network ?? null;
  const tip = cached(() => network!.latestLedger());
  const treasury = cached(async () => (pipeline.stellar ? network!.loadAccount(pipeline.stellar.treasury.publicKey()) : null));
  const check = () => readiness({
    repo, network: network && { kind: network.kind, latestLedger: tip }, clocked: !pipeline.stellar?.sandbox || pipeline.stellar.sandbox.clocked,
    started: deps.started, leads: deps.leads, caughtUp: () => pipeline.follower?.caughtUpLedger ?? null, halted: () => pipeline.follower?.halted ?? null, maxLedgersBehind: config.readyMaxLedgersBehind,
    treasuryHeadroom: async () => {
      if (!pipeline.stellar) return null;
      const account = await treasury();
      return { available: account ? headroomOf(account).available : 0n, needed: POOL_ACCOUNT_STROOPS };
    },
  });

  telemetry.addCollector(async ({ m }) => {
    const now = Date.now();
    for (const [queue, q] of await repo.queues()) {
      m.queueDepth.set({ queue }, q.depth);
      m.queueOldest.set({ queue }, q.oldest ? Math.max(0, (now - Date.parse(q.oldest)) / 1000) : 0);
    }
    const signer = pipeline.signer;
    if (signer) {
      m.queueDepth.set({ queue: 'submissions' }, signer.queued);
      m.queueOldest.set({ queue: 'submissions' }, signer.oldestQueuedAt === null ? 0 : (now - signer.oldestQueuedAt) / 1000);
      m.channelsBusy.set(signer.channels.busy);
      m.channels.set(signer.channels.channels.length);
    }
  });
  telemetry.addCollector(async ({ m }) => {
    if (!network || !pipeline.stellar) return;
    if (pipeline.pool) for (const asset of POOL_ASSETS) m.poolSize.set({ asset }, await pipeline.pool.ready(asset));
    const account = await treasury();
    for (const b of account?.balances ?? []) m.treasuryBalance.set({ asset: b.asset.code }, Number(b.balance) / 1e7);
    if (account) {
      const { balance, available } = headroomOf(account);
      m.xlmHeadroom.set(balance > 0n ? Number(available) / Number(balance) : 0);
    }
    const latest = await tip();
    m.latestLedger.set(latest);
    const caughtUp = pipeline.follower?.caughtUpLedger ?? null;
    if (deps.leads() && caughtUp !== null) m.ledgersBehind.set(Math.max(0, latest - caughtUp));
  });

  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: 'ok', checks: { event_loop: { status: 'ok' } }, uptime_seconds: Math.round(process.uptime()) });
  });
  // the status (and 200/503) for any probe; the checks, which name the treasury's spare XLM, the
  // network's tip and the migration, only for whoever may read /metrics
  router.get('/readyz', async (req, res) => {
    const { ready, checks } = await check();
    telemetry.m.ready.set(ready ? 1 : 0);
    res.setHeader('Cache-Control', 'no-store');
    const status = ready ? 'ready' : 'not_ready';
    const detailed = metricsRefusal(req, config.metricsToken ?? config.operatorKey) === null;
    res.status(ready ? 200 : 503).json(detailed ? { status, checks } : { status });
  });
  if (config.metrics) {
    router.get('/metrics', async (req, res) => {
      const refusal = metricsRefusal(req, config.metricsToken ?? config.operatorKey);
      if (refusal) return void res.status(refusal.status).json({ error: refusal.message });
      res.setHeader('Content-Type', telemetry.registry.contentType);
      res.setHeader('Cache-Control', 'no-store');
      res.send(await telemetry.scrape());
    });
  }
  return { router };
}

/**
 * /metrics (and /readyz's detail) takes `Authorization: Bearer <FUNDKIT_METRICS_TOKEN>` (else the
 * operator key), compared in constant time; with neither configured, only clients on this
 * machine (a local Prometheus, `curl` beside `pnpm start`), by the socket's peer (never a
 * forwarded header).
 */
function metricsRefusal(req: Request, token: string | null): { status: number; message: string } | null {
  if (token) {
    return secretsEqual(req.get('authorization') ?? '', `Bearer ${token}`) ? null : { status: 401, message: 'GET /metrics takes Authorization: Bearer <FUNDKIT_METRICS_TOKEN>' };
  }
  const from = req.socket.remoteAddress ?? '';
  const local = from === '127.0.0.1' || from === '::1' || from === '::ffff:127.0.0.1';
  return local ? null : { status: 403, message: 'set FUNDKIT_METRICS_TOKEN to scrape /metrics from another machine' };
}
