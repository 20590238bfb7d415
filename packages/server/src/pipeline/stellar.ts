/**
 * Wires a StellarNetwork into the server: in sandbox mode the sandbox network (in its own thread
 * by default, or a shared `fundkit sandbox`), reached over HTTP like testnet, or a real network;
 * and the platform's treasury key, persisted encrypted under the master key.
 */
import { Keypair } from '@stellar/stellar-sdk';
import type { Logger } from 'pino';
import { ConfigError, type Config } from '../config.js';
import { bindAll, prepared, type Sql } from '../db/sql.js';
import { decryptSecret, encryptSecret } from '../lib/crypto.js';
import { isoNow } from '../lib/time.js';
import { toStroops } from '../lib/money.js';
import type { StellarNetwork } from '../stellar/index.js';
import { createHorizonNetwork } from '../stellar/horizon/index.js';
import type { NetworkProfile } from '../stellar/networks.js';
import { createRpcNetwork } from '../stellar/rpc/index.js';
import { NativeKeypair } from '../stellar/keypair.js';
import { followNetwork, realNetwork, sandboxChain } from './network-identity.js';
import { httpLink, ledgerStream, type SandboxLink } from '../stellar/sandbox/link.js';
import { startSandboxThread } from '../stellar/sandbox/thread.js';

export interface StellarSetup {
  network: StellarNetwork;
  /** sandbox mode: the sandbox's faucet, URL and ledger-close hints, wherever it runs (stellar/sandbox/link.ts) */
  sandbox: SandboxLink | null;
  treasury: Keypair;
}

/** Float the sandbox treasury holds so MANUAL refunds from the ledger balance can be paid out. */
const SANDBOX_FLOAT = toStroops('1000000');

const KEY = prepared<{ secret_encrypted: string }, { role: string; network: string }>((k, p) =>
  k.selectFrom('stellar_keys').select('secret_encrypted').where('role', '=', p('role')).where('network', '=', p('network')));

/** Insert-or-ignore: of servers starting at once on a new database, the first insert wins and the others keep nothing of theirs. */
const INSERT_KEY = prepared<never, { role: string; network: string; public_key: string; secret_encrypted: string; created_at: string }>((k, p) =>
  k.insertInto('stellar_keys').values(bindAll(p, ['role', 'network', 'public_key', 'secret_encrypted', 'created_at']))
    .onConflict((oc) => oc.column('role').doNothing()));

/**
 * The server's treasury key on `network`: the one kept encrypted under the master key, made and
 * kept on first start. Race-safe: several servers (or `fundkit treasury`) starting at once on a
 * new database each offer a key, and all read back the one row that won, so they sign as one
 * treasury and none fails on the primary key.
 */
export async function treasuryKey(sql: Sql, key: Buffer, network: string): Promise<Keypair> {
  let row = await sql.get(KEY, { role: 'treasury', network });
  if (!row) {
    const keypair = NativeKeypair.random();
    await sql.run(INSERT_KEY, {
      role: 'treasury', network, public_key: keypair.publicKey(), secret_encrypted: encryptSecret(key, keypair.secret()), created_at: isoNow(),
    });
    row = await sql.get(KEY, { role: 'treasury', network });
  }
  // followNetwork refuses a database on another network first: only a key of another network kept beside the record gets here
  if (!row) throw new ConfigError(`this database's treasury key is for another network than ${network}: a database follows one network (FUNDKIT_DB / FUNDKIT_DATABASE_URL)`);
  return NativeKeypair.fromSecret(decryptSecret(key, row.secret_encrypted));
}

export interface SandboxSettings {
  /** the market maker's table (FUNDKIT_SANDBOX_RATES); null keeps the sandbox default */
  rates?: Record<string, string> | null;
  /** FUNDKIT_SANDBOX_LEDGER_SECONDS / _MAX_OPS: a ledger that keeps real time (0 = instant) */
  ledgerSeconds?: number;
  maxOpsPerLedger?: number;
  /**
   * FUNDKIT_SANDBOX_FUND_TREASURY=off (test/treasury): this start does not ask the faucet for the
   * treasury's XLM and float, so a new treasury's account does not exist on the chain, as on a new
   * testnet deployment (see `fundkit treasury --fund`). The next start without it funds it.
   */
  unfundedTreasury?: boolean;
}

export interface WiredSandboxSettings extends SandboxSettings {
  /** the sandbox thread's SQLite file */
  dbPath: string;
  /** a `fundkit sandbox` to use instead of starting a thread */
  url?: string;
  /** a sandbox network already running, shared with other servers */
  link?: SandboxLink;
  logger: Logger;
}

/**
 * Sandbox mode: the sandbox in its own thread by default, or a `fundkit sandbox` at a URL
 * (FUNDKIT_SANDBOX_NETWORK); either way reached over HTTP. A database that still holds the chain
 * of the in-process sandbox (gone) is refused by the migrator first (db/legacy-sandbox.ts).
 */
export async function setupSandboxMode(sql: Sql, secretsKey: Buffer, config: Config, logger: Logger, shared?: SandboxLink): Promise<StellarSetup> {
  const settings = {
    rates: config.sandboxRates, ledgerSeconds: config.sandboxLedgerSeconds, maxOpsPerLedger: config.sandboxLedgerMaxOps, dbPath: config.sandboxDbPath, logger,
    unfundedTreasury: !config.sandboxFundTreasury,
  };
  // a shared one stands in for the thread this server would start (never for a configured URL)
  if (shared && config.sandboxNetwork.mode === 'default') return setupWiredSandbox(sql, secretsKey, { ...settings, link: borrowed(shared) });
  return setupWiredSandbox(sql, secretsKey, { ...settings, ...(config.sandboxNetwork.mode === 'url' ? { url: config.sandboxNetwork.url } : {}) });
}

/** The first ask comes soon after a submission (an instant sandbox has applied it by then), then less often. */
const sandboxPoll = (attempt: number) => Math.min(250, 5 * 2 ** attempt);

/**
 * The sandbox as a network of its own, reached over HTTP like testnet: in a worker thread of this
 * process (its own SQLite file), or a `fundkit sandbox` several servers share. The follower,
 * submission and account reads go through Stellar RPC, path finding through its Horizon; its
 * passphrase and assets come from its GET /sandbox/info. The treasury key is this server's; the
 * sandbox's faucet funds it.
 */
export async function setupWiredSandbox(sql: Sql, secretsKey: Buffer, settings: WiredSandboxSettings): Promise<StellarSetup> {
  const link = settings.link ?? (settings.url ? await remoteSandbox(settings.url) : await startSandboxThread({
    dbPath: settings.dbPath, ledgerSeconds: settings.ledgerSeconds ?? 0, rates: settings.rates ?? null,
    ...(settings.maxOpsPerLedger ? { maxOpsPerLedger: settings.maxOpsPerLedger } : {}),
  }, (error) => settings.logger.error({ err: error }, 'the sandbox thread failed')));
  try {
    const { url } = link;
    const info = await sandboxInfo(url);
    // the database's one chain: a server on another refuses before it keeps a key or an account on it
    await followNetwork(sql, await sandboxChain(url, info.passphrase, settings.link || settings.url ? `url:${url}` : `thread:${settings.dbPath}`));
    const treasury = await treasuryKey(sql, secretsKey, 'sandbox');
    const profile: NetworkProfile = {
      kind: 'sandbox', passphrase: info.passphrase, rpcUrl: `${url}/rpc`, horizonUrl: url, friendbotUrl: `${url}/friendbot`, issuers: info.issuers, api: 'rpc',
    };
    const network = createRpcNetwork(profile, { pollDelay: sandboxPoll });
    // a thread that died says so where readiness reads the network (its requests would only say "fetch failed")
    const stopped = link.stopped?.bind(link);
    if (stopped) {
      const latestLedger = network.latestLedger.bind(network);
      network.latestLedger = async () => {
        const why = stopped();
        if (why) throw new Error(why);
        return latestLedger();
      };
    }
    // at every start, not only the database's first meeting with the chain: a start cut short
    // after that meeting was recorded, or a float paid out, is made good at the next start
    if (!settings.unfundedTreasury) await fundSandboxTreasury(network, link, treasury.publicKey(), settings.logger);
    return { network, sandbox: link, treasury };
  } catch (error) {
    await link.close();
    throw error;
  }
}

/** A shared sandbox as this server sees it: its ledger hints until the server closes, which leaves the sandbox running. */
function borrowed(shared: SandboxLink): SandboxLink {
  const unsubscribe: Array<() => void> = [];
  return {
    ...shared,
    onLedger: (listener) => {
      const off = shared.onLedger(listener);
      unsubscribe.push(off);
      return off;
    },
    close: async () => {
      for (const off of unsubscribe.splice(0)) off();
    },
  };
}

interface SandboxInfo {
  passphrase: string;
  clocked: boolean;
  issuers: { USDC: string; EURC: string };
}

/** GET /sandbox/info of a `fundkit sandbox` (or its thread): its passphrase, clock and assets; a ConfigError when it is none. */
async function sandboxInfo(url: string): Promise<SandboxInfo> {
  let info: { passphrase?: string; ledger_seconds?: number; assets?: string[] };
  try {
    const res = await fetch(`${url}/sandbox/info`, { signal: AbortSignal.timeout(CHECK_MS) });
    if (!res.ok) throw new Error(`GET /sandbox/info answered ${res.status}`);
    info = await res.json() as typeof info;
  } catch (error) {
    throw new ConfigError(`FUNDKIT_SANDBOX_NETWORK=${url} is not a reachable \`fundkit sandbox\` (${error instanceof Error ? error.message : String(error)}): start one with \`pnpm fundkit sandbox\``);
  }
  const issuer = (code: string) => info.assets?.find((a) => a.startsWith(`${code}:`))?.slice(code.length + 1);
  const USDC = issuer('USDC');
  const EURC = issuer('EURC');
  if (!info.passphrase || !USDC || !EURC) {
    throw new ConfigError(`${url} answered GET /sandbox/info without a passphrase and USDC and EURC assets: it is no \`fundkit sandbox\`; for another network use FUNDKIT_STELLAR=custom`);
  }
  return { passphrase: info.passphrase, clocked: (info.ledger_seconds ?? 0) > 0, issuers: { USDC, EURC } };
}

/** A `fundkit sandbox` at `url`: its clock from GET /sandbox/info, its ledger closes from its Horizon's stream. */
async function remoteSandbox(url: string): Promise<SandboxLink> {
  const info = await sandboxInfo(url);
  const ledgers = ledgerStream(url);
  return httpLink(url, { clocked: info.clocked, onLedger: ledgers.onLedger, close: async () => ledgers.close() });
}

/**
 * What the treasury lacks of what genesis gave it, from the faucet: the account with 1,000,000
 * XLM when it does not exist, the USDC and EURC float on a line that is missing or empty; nothing
 * when it has them (an account's XLM is never topped up). Servers starting at once may both fund
 * it (the faucet adds): more test money, no harm. A faucet that fails is logged and the start goes
 * on: the treasury says what it lacks at /readyz and `fundkit treasury`, and the next start retries.
 */
async function fundSandboxTreasury(network: StellarNetwork, link: SandboxLink, address: string, logger: Logger): Promise<void> {
  try {
    const account = await network.loadAccount(address);
    if (!account) await link.fund(address, network.assets.XLM, toStroops('1000000'));
    for (const code of ['USDC', 'EURC'] as const) {
      const asset = network.assets[code];
      const line = account?.balances.find((b) => b.asset.issuer === asset.issuer && b.asset.code === asset.code);
      if (!line || line.balance === 0n) await link.fund(address, asset, SANDBOX_FLOAT);
    }
  } catch (error) {
    logger.warn({ err: error, treasury: address }, 'the sandbox faucet could not fund the treasury; the next start tries again');
  }
}

/**
 * A real network (FUNDKIT_STELLAR=testnet|pubnet|custom) over Stellar RPC or Horizon: the treasury
 * key is kept like the sandbox's; `fundkit treasury` says what it needs and funds it where a
 * friendbot exists.
 */
export async function setupNetwork(sql: Sql, secretsKey: Buffer, profile: NetworkProfile): Promise<StellarSetup> {
  await followNetwork(sql, realNetwork(profile));
  const treasury = await treasuryKey(sql, secretsKey, profile.kind);
  const network = profile.api === 'rpc' ? createRpcNetwork(profile) : createHorizonNetwork({ profile });
  return { network, sandbox: null, treasury };
}

/** How long the start-up check waits for the network before going on without it. */
const CHECK_MS = 5000;

/**
 * At start, against the network itself: its passphrase is the configured one, and the issuers
 * named exist there. A mismatch stops the start with what to fix (a server on the wrong network
 * would sign for one and watch another); a network that does not answer only delays the check to
 * /readyz, so the server still starts and answers.
 */
export async function checkNetwork(network: StellarNetwork, profile: NetworkProfile, logger: Logger): Promise<void> {
  const within = <T>(work: Promise<T>) => Promise.race([work, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${CHECK_MS / 1000} s`)), CHECK_MS).unref())]);
  const source = profile.api === 'rpc' ? `Stellar RPC at ${profile.rpcUrl}` : `Horizon at ${profile.horizonUrl}`;
  let passphrase: string;
  try {
    passphrase = await within(network.networkPassphrase());
  } catch (error) {
    logger.warn({ err: error, network: profile.kind }, `could not reach ${source} at start; /readyz says when it answers`);
    return;
  }
  if (passphrase !== profile.passphrase) {
    throw new ConfigError(`${source} serves the network "${passphrase}", not the configured "${profile.passphrase}": fix FUNDKIT_RPC_URL / FUNDKIT_HORIZON_URL or FUNDKIT_NETWORK_PASSPHRASE`);
  }
  for (const code of ['USDC', 'EURC'] as const) {
    const issuer = profile.issuers[code];
    const account = await within(network.loadAccount(issuer)).catch((error: unknown) => {
      logger.warn({ err: error, issuer }, `could not check the ${code} issuer at start`);
      return undefined;
    });
    if (account === null) throw new ConfigError(`the ${code} issuer ${issuer} does not exist on ${profile.kind} (${source}): fix FUNDKIT_ASSETS`);
  }
}
