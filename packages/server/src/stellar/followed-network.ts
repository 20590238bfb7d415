/**
 * One network per database. A database's deposit accounts, treasury and follower cursor exist on
 * one Stellar network only, so the database records the network it follows (migration 033) and a
 * server, `fundkit treasury` or `fundkit migrate` pointed at another one refuses to start. A
 * network is named by its passphrase and, for the sandbox (every sandbox chain has the same
 * passphrase), by its chain's first ledger and that ledger's hash, read over the wire. Testnet,
 * pubnet and custom networks are named by their passphrase only: their RPC keeps a moving window
 * and Horizon's history may be pruned, so no first ledger is reliably readable; a reset testnet
 * (same passphrase, new chain) is what the ledger follower's NetworkBehindError catches.
 */
import { ConfigError } from '../config.js';
import { prepared, type Sql } from '../db/sql.js';
import { isoNow } from '../lib/time.js';

export interface FirstLedger {
  sequence: number;
  hash: string;
}

export interface NetworkIdentity {
  /** sandbox, testnet, pubnet, custom (for messages: the passphrase and first ledger decide) */
  kind: string;
  passphrase: string;
  /** the sandbox chain's first ledger; null on real networks */
  firstLedger: FirstLedger | null;
  /** how this process reaches it, for messages: "the sandbox thread on /…/fundkit.sandbox.db" */
  source: string;
}

/** The row of migration 033's followed_network. */
export interface RecordedNetwork {
  kind: string;
  passphrase: string;
  first_ledger: number | null;
  first_ledger_hash: string | null;
  source: string;
  recorded_at: string;
}

type RecordArgs = Omit<RecordedNetwork, 'first_ledger' | 'first_ledger_hash'> & { first_ledger: number | null; first_ledger_hash: string | null };

/** Inserted only when the database has none: the first to record wins, the others read it back. */
const RECORD = prepared<never, RecordArgs>((k, p) => k.insertInto('followed_network').values({
  id: 1, kind: p('kind'), passphrase: p('passphrase'), first_ledger: p('first_ledger'), first_ledger_hash: p('first_ledger_hash'),
  source: p('source'), recorded_at: p('recorded_at'),
}).onConflict((oc) => oc.column('id').doNothing()));

const READ = prepared<RecordedNetwork>((k) => k.selectFrom('followed_network')
  .select(['kind', 'passphrase', 'first_ledger', 'first_ledger_hash', 'source', 'recorded_at']).where('id', '=', 1));

/** Another network than the one the database follows: the start stops with what to do. */
export class NetworkMismatchError extends ConfigError {
  constructor(message: string) {
    super(message);
    this.name = 'NetworkMismatchError';
  }
}

/**
 * Records `network` as the one the database follows when it has none (an upgraded database
 * records it on its next start), in one transaction; throws NetworkMismatchError when the
 * database follows another. `who` names the process in the message ("this server").
 */
export async function followNetwork(sql: Sql, network: NetworkIdentity, who = 'this server'): Promise<void> {
  const recorded = await sql.transaction(async () => {
    await sql.run(RECORD, {
      kind: network.kind, passphrase: network.passphrase, first_ledger: network.firstLedger?.sequence ?? null,
      first_ledger_hash: network.firstLedger?.hash ?? null, source: network.source, recorded_at: isoNow(),
    });
    return (await sql.get(READ))!;
  });
  const message = mismatch(recorded, network, who);
  if (message) throw new NetworkMismatchError(message);
}

/**
 * What to say when `network` is not the one the database records; null when it is (or when
 * either side does not name a chain: a real network's passphrase is its whole name here).
 */
export function mismatch(recorded: RecordedNetwork, network: NetworkIdentity, who: string): string | null {
  // a local stellar/quickstart (FUNDKIT_STELLAR=custom) has the sandbox's passphrase but is no sandbox chain
  const sandboxes = [recorded.kind, network.kind].filter((kind) => kind === 'sandbox').length;
  if (recorded.passphrase !== network.passphrase || sandboxes === 1) return anotherNetwork(recorded, network, who);
  const chain = network.firstLedger;
  if (recorded.first_ledger_hash === null || chain === null) return null;
  if (Number(recorded.first_ledger) === chain.sequence && recorded.first_ledger_hash === chain.hash) return null;
  return anotherChain(recorded, network, who);
}

const named = (n: { kind: string; passphrase: string }) => `the ${n.kind} network ("${n.passphrase}")`;
const since = (r: RecordedNetwork) => `recorded ${r.recorded_at} from ${r.source}`;

function anotherNetwork(recorded: RecordedNetwork, network: NetworkIdentity, who: string): string {
  return `this database follows ${named(recorded)} (${since(recorded)}), but ${who} reaches ${named(network)} through ${network.source}: `
    + `its deposit accounts, treasury and payments exist on ${recorded.kind} only. Point ${who} at ${recorded.kind} (FUNDKIT_STELLAR=${recorded.kind}), `
    + `or give ${network.kind} its own database (FUNDKIT_DATABASE_URL, or FUNDKIT_DATA_DIR / FUNDKIT_DB)`;
}

const chainOf = (sequence: number | null, hash: string | null) => `ledger ${sequence} ${hash?.slice(0, 12)}…`;

function anotherChain(recorded: RecordedNetwork, network: NetworkIdentity, who: string): string {
  const chain = network.firstLedger!;
  return `this database follows another sandbox chain than the one ${who} reaches: the database's begins with `
    + `${chainOf(recorded.first_ledger, recorded.first_ledger_hash)} (${since(recorded)}), ${network.source}'s with ${chainOf(chain.sequence, chain.hash)}. `
    + 'Deposit accounts made on one chain do not exist on the other, so its payments would fail. Servers that share a database share one sandbox: '
    + 'start one with `pnpm fundkit sandbox` (`--db <file>` keeps the chain of the sandbox file that server started with; stop it first) '
    + 'and set FUNDKIT_SANDBOX_NETWORK=<its URL> (http://localhost:8000 by default) on each server; or give this one a new database';
}

/** Reads the record with a plain query (`fundkit migrate`, before it migrates): its columns, in order. */
export const READ_RECORDED_NETWORK = 'SELECT kind, passphrase, first_ledger, first_ledger_hash, source, recorded_at FROM followed_network WHERE id = 1';
