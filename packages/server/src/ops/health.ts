/**
 * Readiness: can this server take traffic now? Each check names itself, answers within its own
 * time bound, and says why when it fails, so a probe's 503 body is a diagnosis. Liveness is not
 * here: /healthz answers from the event loop alone (a server whose database is down is alive, and
 * restarting it would not bring the database back).
 */
import type { OpsRepo } from './repo.js';

export interface Check {
  status: 'ok' | 'fail';
  [detail: string]: unknown;
}

export interface ReadinessDeps {
  repo: OpsRepo;
  /** the network the pipeline speaks to (null without one) */
  network: { kind: string; latestLedger(): Promise<number> } | null;
  /** whether the network closes ledgers on a clock (a real network, or a clocked sandbox) */
  clocked: boolean;
  /** true once listen() finished starting the server's loops */
  started(): boolean;
  /** whether this server runs the pipeline (only that one observes the network) */
  leads(): boolean;
  /** the ledger the observer has caught up to, null before its first pass */
  caughtUp(): number | null;
  /** why the ledger follower stopped (its source lost the ledgers it needs), null while it runs */
  halted(): string | null;
  maxLedgersBehind: number;
  /** what the treasury can still spend on pool accounts, in stroops of XLM (null without a network) */
  treasuryHeadroom(): Promise<{ available: bigint; needed: bigint } | null>;
}

/** A check that takes longer than this fails: a probe must answer within its own timeout. */
const CHECK_TIMEOUT_MS = 2_000;

async function bounded(name: string, run: () => Promise<Check>): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Check>((resolve) => {
    timer = setTimeout(() => resolve({ status: 'fail', error: `${name} did not answer within ${CHECK_TIMEOUT_MS} ms` }), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([run().catch((error: unknown) => ({ status: 'fail' as const, error: messageOf(error) })), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** An error's message, without anything that could hold a secret (connection strings carry passwords). */
function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\w+:\/\/[^\s@/]+@/g, (m) => `${m.split('://')[0]}://***@`).slice(0, 300);
}

async function database(deps: ReadinessDeps): Promise<Check> {
  await deps.repo.ping();
  const { applied, known } = await deps.repo.migrations();
  if (applied < known) return { status: 'fail', error: `the database is at migration ${applied}; this server needs ${known} (run fundkit migrate)`, migration: applied };
  return { status: 'ok', migration: applied };
}

async function network(deps: ReadinessDeps, tip: { ledger: number | null }): Promise<Check> {
  if (!deps.network) return { status: 'ok', detail: 'no Stellar network configured' };
  tip.ledger = await deps.network.latestLedger();
  return { status: 'ok', kind: deps.network.kind, latest_ledger: tip.ledger };
}

function follower(deps: ReadinessDeps, tip: number | null): Check {
  if (!deps.network) return { status: 'ok', detail: 'no Stellar network configured' };
  if (!deps.leads()) return { status: 'ok', detail: 'another server runs the pipeline and observes the network' };
  const caughtUp = deps.caughtUp();
  const halted = deps.halted();
  if (halted) return { status: 'fail', error: `the ledger follower stopped: ${halted}` };
  if (tip === null) return { status: 'fail', error: 'the network\'s tip is unknown (see the network check)' };
  if (caughtUp === null) return { status: 'fail', error: 'the ledger follower has not read the network yet' };
  const behind = Math.max(0, tip - caughtUp);
  // an instant sandbox closes a ledger per transaction: ledgers there are not time, so a busy
  // moment is many "ledgers" behind without any delay
  if (deps.clocked && behind > deps.maxLedgersBehind) {
    return { status: 'fail', error: `the ledger follower is ${behind} ledgers behind the network (more than ${deps.maxLedgersBehind})`, ledgers_behind: behind };
  }
  return { status: 'ok', ledgers_behind: behind };
}

async function treasury(deps: ReadinessDeps): Promise<Check> {
  const headroom = await deps.treasuryHeadroom();
  if (!headroom) return { status: 'ok', detail: 'no Stellar network configured' };
  const xlm = (stroops: bigint) => (Number(stroops) / 1e7).toFixed(7);
  if (headroom.available < headroom.needed) {
    return { status: 'fail', error: `the treasury has ${xlm(headroom.available)} XLM above its reserves; one more pool account needs ${xlm(headroom.needed)} (fund it: see fundkit treasury)`, available_xlm: xlm(headroom.available) };
  }
  return { status: 'ok', available_xlm: xlm(headroom.available) };
}

export async function readiness(deps: ReadinessDeps): Promise<{ ready: boolean; checks: Record<string, Check> }> {
  const tip = { ledger: null as number | null };
  const [db, net, funds] = await Promise.all([
    bounded('the database', () => database(deps)),
    bounded('the network', () => network(deps, tip)),
    bounded('the treasury', () => treasury(deps)),
  ]);
  const checks: Record<string, Check> = {
    started: deps.started() ? { status: 'ok' } : { status: 'fail', error: 'the server is still starting' },
    database: db, network: net, follower: follower(deps, tip.ledger), treasury: funds,
  };
  return { ready: Object.values(checks).every((c) => c.status === 'ok'), checks };
}
