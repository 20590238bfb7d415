/**
 * One network per database (issue 40, item 4). The database records the network it follows, its
 * passphrase and an identity the network itself gives (migration 035): for a real network the
 * passphrase; for a sandbox reached over HTTP (its thread, a `fundkit sandbox`) the hash of its
 * chain's oldest ledger, read over its Stellar RPC (`in-process` in a database of the in-process
 * sandbox, gone: the migrator refuses those, db/legacy-sandbox.ts). The first server or command to reach a network records it; every
 * later one compares, and one on another network refuses to start with what to do: it would
 * watch a chain its database's deposit accounts and treasury are not on.
 */
import { ConfigError } from '../config.js';
import { prepared, type Sql } from '../db/sql.js';
import { isoNow } from '../lib/time.js';
import type { NetworkProfile } from '../stellar/networks.js';

/** The network a server reaches, as the database records it. */
export interface FollowedNetwork {
  passphrase: string;
  identity: string;
  /** how it is reached, `<how>:<where>`: `thread:<file>`, `url:<sandbox URL>`, `rpc:<url>`, `horizon:<url>` (`in-process:` in old rows) */
  source: string;
  /** its name in stellar_keys (sandbox, testnet, pubnet, custom) */
  kind: string;
}

interface Recorded {
  passphrase: string;
  identity: string;
  source: string;
  recorded_at: string;
}

/** The identity and source kind old rows of the in-process sandbox (removed) hold: read, never written. */
const IN_PROCESS = 'in-process';

const RECORDED = prepared<Recorded>((k) =>
  k.selectFrom('network_identity').select(['passphrase', 'identity', 'source', 'recorded_at']).where('id', '=', 1));

const RECORD = prepared<never, Recorded>((k, p) => k.insertInto('network_identity')
  .values({ id: 1, passphrase: p('passphrase'), identity: p('identity'), source: p('source'), recorded_at: p('recorded_at') })
  .onConflict((oc) => oc.column('id').doNothing()));

const TREASURIES = prepared<{ network: string }>((k) => k.selectFrom('stellar_keys').select('network').where('role', '=', 'treasury'));

/** A real network: its passphrase is its identity (its early ledgers are outside any RPC's retention). */
export function realNetwork(profile: NetworkProfile): FollowedNetwork {
  const source = profile.api === 'rpc' ? `rpc:${profile.rpcUrl}` : `horizon:${profile.horizonUrl}`;
  return { passphrase: profile.passphrase, identity: profile.passphrase, source, kind: profile.kind };
}

/**
 * A sandbox reached over HTTP at `url` (Horizon at the root, RPC at /rpc): its chain's identity
 * is the hash of its oldest ledger (getHealth's oldestLedger, then getLedgers), which differs
 * from one sandbox chain to the next (the sandbox's genesis hash is random).
 */
export async function sandboxChain(url: string, passphrase: string, source: string): Promise<FollowedNetwork> {
  const rpc = async <T>(method: string, params: unknown): Promise<T> => {
    const res = await fetch(`${url}/rpc`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, signal: AbortSignal.timeout(10_000),
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    const body = await res.json() as { result?: T; error?: { message: string } };
    if (!body.result) throw new Error(`${method} answered ${body.error?.message ?? `HTTP ${res.status}`}`);
    return body.result;
  };
  try {
    const { oldestLedger } = await rpc<{ oldestLedger: number }>('getHealth', {});
    const { ledgers } = await rpc<{ ledgers: Array<{ hash: string }> }>('getLedgers', { startLedger: oldestLedger, pagination: { limit: 1 } });
    if (!ledgers[0]) throw new Error(`no ledger ${oldestLedger}`);
    return { passphrase, identity: ledgers[0].hash, source, kind: 'sandbox' };
  } catch (error) {
    throw new Error(`could not read which chain the sandbox at ${url} runs (its oldest ledger over Stellar RPC): ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * Records `network` as the database's when it has none (race-safe: the first of several servers
 * starting at once wins, the others read its row back), then refuses with a ConfigError when the
 * database follows another one.
 */
export async function followNetwork(sql: Sql, network: FollowedNetwork): Promise<void> {
  let recorded = await sql.get(RECORDED);
  if (!recorded) {
    // a database used before the record existed: its treasury key says which network it was on
    const other = (await sql.all(TREASURIES)).find((t) => t.network !== network.kind);
    if (other) throw new ConfigError(treasuryElsewhere(other.network, network));
    await sql.run(RECORD, { passphrase: network.passphrase, identity: network.identity, source: network.source, recorded_at: isoNow() });
    recorded = (await sql.get(RECORDED))!;
  }
  if (recorded.passphrase !== network.passphrase || recorded.identity !== network.identity) throw new ConfigError(mismatch(recorded, network));
}

function split(source: string): { how: string; where: string } {
  const at = source.indexOf(':');
  return { how: source.slice(0, at), where: source.slice(at + 1) };
}

/** How a source reads in a sentence. */
function describe(source: string): string {
  const { how, where } = split(source);
  if (how === 'thread') return `its own sandbox thread (chain file ${where})`;
  if (how === 'url') return `the sandbox at ${where}`;
  if (how === IN_PROCESS) return 'the in-process sandbox (removed; its chain was kept in the database itself)';
  return `${how === 'rpc' ? 'Stellar RPC' : 'Horizon'} at ${where}`;
}

/** A sandbox chain's identity, shortened; nothing for a real network (its passphrase is said apart) or the in-process chain. */
const chain = (n: { passphrase: string; identity: string }) => (n.identity === IN_PROCESS || n.identity === n.passphrase ? '' : ` (chain ${n.identity.slice(0, 12)}…)`);

/** What a server on another sandbox chain than the database's does: share the database's sandbox. */
function shareTheSandbox(recorded: Recorded): string {
  const { how, where } = split(recorded.source);
  const why = 'Servers that share a database must share one sandbox: a deposit account one of them makes exists only on its own chain.';
  if (how === 'url') return `${why} Set FUNDKIT_SANDBOX_NETWORK=${where} on this server, as on the others (if that sandbox is gone for good, start over on a fresh database).`;
  if (how === 'thread' && where !== ':memory:') {
    return `${why} Run the database's chain once for all of them: stop the server that runs that thread, start \`pnpm fundkit sandbox --db ${where}\`, `
      + 'and set FUNDKIT_SANDBOX_NETWORK=<its URL> (http://localhost:8000 by default) on each server.';
  }
  return `${why} Start one \`pnpm fundkit sandbox\` and set FUNDKIT_SANDBOX_NETWORK=<its URL> on each server, on a fresh database.`;
}

function mismatch(recorded: Recorded, network: FollowedNetwork): string {
  const first = `this database follows ${describe(recorded.source)}${chain(recorded)}, recorded ${recorded.recorded_at}`;
  if (recorded.passphrase !== network.passphrase) {
    return `${first}, on the network "${recorded.passphrase}"; this is configured for "${network.passphrase}" (${describe(network.source)}). `
      + 'Its treasury, deposit accounts and payments are on the first: point FUNDKIT_STELLAR (FUNDKIT_RPC_URL / FUNDKIT_HORIZON_URL, FUNDKIT_NETWORK_PASSPHRASE) '
      + 'at that network, or give this one a database of its own (FUNDKIT_DB / FUNDKIT_DATABASE_URL).';
  }
  if (recorded.identity === IN_PROCESS) {
    return `${first}; this server reached ${describe(network.source)}${chain(network)}, another chain. `
      + 'The in-process sandbox is gone and its chain with it: start over on a fresh database (FUNDKIT_DB / FUNDKIT_DATABASE_URL); its money was test money.';
  }
  if (recorded.source === network.source && split(network.source).how === 'thread') {
    return `${first}; the chain in that file now is another one${chain(network)}: the file was deleted or replaced, and with it the chain this database's `
      + 'treasury and deposit accounts are on. Put the file back, or start over on a fresh database (FUNDKIT_DB / FUNDKIT_DATABASE_URL).';
  }
  return `${first}; this server reached ${describe(network.source)}${chain(network)}, another chain. ${shareTheSandbox(recorded)}`;
}

function treasuryElsewhere(treasuryNetwork: string, network: FollowedNetwork): string {
  return `this database's treasury key is for ${treasuryNetwork}, not ${network.kind} (${describe(network.source)}): a database follows one network. `
    + `Start with the configuration it was used with (FUNDKIT_STELLAR=${treasuryNetwork}${treasuryNetwork === 'sandbox' ? ', FUNDKIT_SANDBOX_NETWORK as before' : ''}), `
    + 'or give this network a database of its own (FUNDKIT_DB / FUNDKIT_DATABASE_URL).';
}
