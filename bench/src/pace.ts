/**
 * Create latency at a ledger's pace (issue 27): the built server (its own process, file database)
 * on a sandbox ledger closing every 2 s and, separately, every 5 s; 100 `POST /v1/funding-intents`
 * from 25 concurrent clients, each burst sent at a random moment of the ledger (a random
 * 0..ledgerSeconds after a close), RUNS bursts; beside it, in the same run on the same server, the
 * same bursts sent right after a close (the network section's way). The bursts themselves are
 * network.ts's (paceBursts).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, percentile } from './lib.js';
import { createRun, paceBursts, startServer, type CreateRun } from './network.js';

export const PACES = [2, 5];
export const PACE_COUNTS = { creates: 100, clients: 25, warmUp: 500 };

export interface PaceQuantiles { p50: number; p95: number; p99: number }
export interface PaceFigure {
  ledgerSeconds: number;
  /** medians over the bursts of each burst's p50, p95, p99 */
  random: PaceQuantiles;
  afterClose: PaceQuantiles;
  /** per burst, in order: its delay after the close (s), p95 (ms), answers */
  randomRounds: { offsetS: number; closes: number; p50: number; p95: number; p99: number; statuses: Record<string, number> }[];
  afterCloseCloses: number[];
  afterCloseP95s: number[];
}

const quantiles = (rounds: CreateRun[]): PaceQuantiles => ({
  p50: median(rounds.map((r) => percentile(r.latency, 50))),
  p95: median(rounds.map((r) => percentile(r.latency, 95))),
  p99: median(rounds.map((r) => percentile(r.latency, 99))),
});

export async function benchPace(): Promise<{ figures: PaceFigure[]; notes: string[]; commands: string[] }> {
  const figures: PaceFigure[] = [];
  for (const ledgerSeconds of PACES) {
    const server = await startServer(mkdtempSync(join(tmpdir(), `fundkit-bench-pace${ledgerSeconds}-`)), ledgerSeconds, {});
    try {
      // the default pool (20 per asset) first, as paceBursts waits for it before each burst
      const label = `${ledgerSeconds} s ledgers`;
      const random = await paceBursts(server, {
        ...PACE_COUNTS, payable: false, label: `${label}, random moment`,
        offsetMs: () => Math.random() * ledgerSeconds * 1000,
      });
      const afterClose = await paceBursts(server, { ...PACE_COUNTS, warmUp: 0, payable: false, label: `${label}, right after a close`, offsetMs: () => 0 });
      figures.push({
        ledgerSeconds, random: quantiles(random.rounds), afterClose: quantiles(afterClose.rounds),
        randomRounds: random.rounds.map((r, i) => ({ offsetS: random.offsets[i]! / 1000, closes: random.closesDuring[i]!, p50: percentile(r.latency, 50), p95: percentile(r.latency, 95), p99: percentile(r.latency, 99), statuses: r.createdStatus })),
        afterCloseP95s: afterClose.rounds.map((r) => percentile(r.latency, 95)), afterCloseCloses: afterClose.closesDuring,
      });
    } finally {
      await server.stop();
    }
  }
  const notes = figures.map((f) => `create-pace, ${f.ledgerSeconds} s ledgers: ${PACE_COUNTS.creates} creates (POST /v1/funding-intents, USDC) from ${PACE_COUNTS.clients} clients (node:http keep-alive, one connection each, opened by 3 rounds of GETs first), after ${PACE_COUNTS.warmUp} warm-up creates in EURC; before each burst the pools full again (20 per asset, the default) and no deposit batch pending; bursts at a random moment: ${f.randomRounds.map((r) => `${r.offsetS.toFixed(2)} s after a close (${r.closes} close${r.closes === 1 ? '' : 's'} during the burst, seen from Horizon's latest ledger before and after) → p50 ${r.p50.toFixed(0)} / p95 ${r.p95.toFixed(0)} / p99 ${r.p99.toFixed(0)} ms ${JSON.stringify(r.statuses)}`).join('; ')}; bursts right after a close: p95s ${f.afterCloseP95s.map((v) => v.toFixed(0)).join(', ')} ms (closes during them: ${f.afterCloseCloses.join(', ')}); figures are the medians over the bursts of each burst's percentile`);
  notes.push('create-pace: the sandbox network in its own thread (its closes apply the deposit accounts\' transactions off the API\'s event loop; the server reaches it over Stellar RPC); the machine is 2 shared cores, the load generator on them: noisy');
  const commands = [
    'cd bench && npx tsx src/run.ts --only create-pace --merge',
    `node packages/server/bin/fundkit-server.js  (create-pace: FUNDKIT_DB=<file>, FUNDKIT_SANDBOX_LEDGER_SECONDS=${PACES.join(' then ')}, FUNDKIT_RATE_LIMIT=1000000, LOG_LEVEL=warn)`,
  ];
  return { figures, notes, commands };
}

/** How long after a fresh server's spawn its burst is sent: its pool just filled, its keys not yet on their thread. */
export const FRESH_AFTER_MS = 6_000;
export const FRESH_SERVERS = 3;

export interface FreshFigure extends PaceQuantiles {
  ledgerSeconds: number;
  /** per server: how long after its spawn the burst was sent (s), its p50/p95/p99 and answers */
  servers: { afterS: number; p50: number; p95: number; p99: number; statuses: Record<string, number> }[];
}

/**
 * The fresh-server case (issue 39): what a user meets first. A server spawned on a fresh database
 * at 2 s ledgers, and ~6 s after its spawn (its start and the pool's first fill in that time) one
 * burst of 100 creates from 25 clients, no warm-up creates; FRESH_SERVERS servers, one burst each,
 * medians of each burst's percentiles.
 */
export async function benchFreshPace(ledgerSeconds = 2): Promise<{ figure: FreshFigure; notes: string[] }> {
  const servers: FreshFigure['servers'] = [];
  const runs: CreateRun[] = [];
  for (let n = 0; n < FRESH_SERVERS; n++) {
    const spawned = performance.now();
    const server = await startServer(mkdtempSync(join(tmpdir(), `fundkit-bench-fresh${ledgerSeconds}-`)), ledgerSeconds, {});
    try {
      const wait = spawned + FRESH_AFTER_MS - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const afterS = (performance.now() - spawned) / 1000;
      const { run } = await createRun(server.url, PACE_COUNTS.creates, PACE_COUNTS.clients, null);
      runs.push(run);
      servers.push({ afterS, p50: percentile(run.latency, 50), p95: percentile(run.latency, 95), p99: percentile(run.latency, 99), statuses: run.createdStatus });
      console.log(`create-pace, fresh server (${ledgerSeconds} s ledgers): burst ${afterS.toFixed(1)} s after spawn, p50 ${servers.at(-1)!.p50.toFixed(1)} / p95 ${servers.at(-1)!.p95.toFixed(1)} / p99 ${servers.at(-1)!.p99.toFixed(1)} ms ${JSON.stringify(run.createdStatus)}`);
    } finally {
      await server.stop();
    }
  }
  const figure = { ledgerSeconds, ...quantiles(runs), servers };
  const notes = [`create-pace, fresh server: ${FRESH_SERVERS} servers, each spawned on a fresh database at ${ledgerSeconds} s ledgers; ${PACE_COUNTS.creates} creates from ${PACE_COUNTS.clients} clients (their connections opened by 3 rounds of GETs first, no warm-up creates), sent ${FRESH_AFTER_MS / 1000} s after the spawn or as soon as it answered: ${servers.map((s) => `${s.afterS.toFixed(1)} s after spawn → p50 ${s.p50.toFixed(0)} / p95 ${s.p95.toFixed(0)} / p99 ${s.p99.toFixed(0)} ms ${JSON.stringify(s.statuses)}`).join('; ')}; medians over the servers`];
  return { figure, notes };
}
