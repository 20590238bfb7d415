/**
 * Wires a StellarNetwork into the server: in sandbox mode the sandbox network (in its own thread
 * by default, reached over HTTP like testnet; a shared `fundkit sandbox`; or, for a database that
 * already holds its chain, in this process), or a real network; and the platform's treasury key,
 * persisted encrypted under the master key.
 */
import { Keypair } from '@stellar/stellar-sdk';
import type { Router } from 'express';
import type { Logger } from 'pino';
import { ConfigError, type Config, type SandboxNetworkSetting } from '../config.js';
import { bindAll, prepared, type Sql } from '../db/sql.js';
import { decryptSecret, encryptSecret } from '../lib/crypto.js';
import { isoNow } from '../lib/time.js';
import { toStroops } from '../lib/money.js';
import {
  bootstrapSandbox, createFriendbotRouter, createSandboxHorizonRouter, ensureFriendbot, SANDBOX_ASSETS, SANDBOX_PASSPHRASE, SandboxLedger, sandboxApiPaths,
} from '@fundkit/sandbox';
import type { StellarNetwork } from '../stellar/index.js';
import { createHorizonNetwork } from '../stellar/horizon/index.js';
import type { NetworkProfile } from '../stellar/networks.js';
import { createRpcNetwork } from '../stellar/rpc/index.js';
import { NativeKeypair } from '../stellar/keypair.js';
import { followNetwork, inProcessSandbox, realNetwork, sandboxChain } from './network-identity.js';
import { httpLink, inProcessLink, ledgerStream, type SandboxLink } from '../stellar/sandbox/link.js';
import { SandboxNetwork } from '../stellar/sandbox/network.js';
import { startSandboxThread } from '../stellar/sandbox/thread.js';

export interface StellarSetup {
  network: StellarNetwork;
  /** the sandbox ledger when it runs in this process (FUNDKIT_SANDBOX_NETWORK=in-process) */
  ledger: SandboxLedger | null;
  /** sandbox mode: the sandbox's faucet and ledger-close hints, wherever it runs (stellar/sandbox/link.ts) */
  sandbox: SandboxLink | null;
  treasury: Keypair;
  /** the in-process ledger's /sandbox/horizon, /sandbox/rpc and /sandbox/friendbot, for app.ts to mount (null elsewhere: forwarded) */
  sandboxRoutes: Router | null;
}

/** Float the sandbox treasury holds so MANUAL refunds from the ledger balance can be paid out. */
const SANDBOX_FLOAT = toStroops('1000000');

const KEY = prepared<{ secret_encrypted: string }, { role: string; network: string }>((k, p) =>
  k.selectFrom('stellar_keys').select('secret_encrypted').where('role', '=', p('role')).where('network', '=', p('network')));

const INSERT_KEY = prepared<never, { role: string; network: string; public_key: string; secret_encrypted: string; created_at: string }>((k, p) =>
  k.insertInto('stellar_keys').values(bindAll(p, ['role', 'network', 'public_key', 'secret_encrypted', 'created_at'])));

/** The server's treasury key on `network`: the one kept encrypted under the master key, made and kept on first start. */
async function treasuryKey(sql: Sql, key: Buffer, network: string): Promise<Keypair> {
  const row = await sql.get(KEY, { role: 'treasury', network });
  if (row) return NativeKeypair.fromSecret(decryptSecret(key, row.secret_encrypted));
  const keypair = NativeKeypair.random();
  await sql.run(INSERT_KEY, {
    role: 'treasury', network, public_key: keypair.publicKey(), secret_encrypted: encryptSecret(key, keypair.secret()), created_at: isoNow(),
  });
  return keypair;
}

/** Sandbox: genesis (idempotent) with a treasury whose secret we keep encrypted. */
export interface SandboxSettings {
  /** the market maker's table (FUNDKIT_SANDBOX_RATES); null keeps the sandbox default */
  rates?: Record<string, string> | null;
  /** FUNDKIT_SANDBOX_LEDGER_SECONDS / _MAX_OPS: a ledger that keeps real time (0 = instant) */
  ledgerSeconds?: number;
  maxOpsPerLedger?: number;
  /**
   * TEST-ONLY (test/treasury): on a fresh database, genesis funds a stand-in account instead of
   * the treasury, which then does not exist on the ledger, as on a new testnet deployment (see
   * `fundkit treasury --fund`). Only read when genesis runs; later starts keep it unfunded.
   */
  unfundedTreasury?: boolean;
}

/** sbx_keys role naming a treasury that genesis left unfunded (unfundedTreasury). */
const UNFUNDED_TREASURY = 'unfunded_treasury';

/** The sandbox ledger keeps its chain in the server's database (migration 020's tables). */
export async function setupSandbox(sql: Sql, secretsKey: Buffer, horizonUrl: string, settings: SandboxSettings = {}): Promise<StellarSetup> {
  const { rates = null } = settings;
  // before genesis writes the chain into a database that follows another one
  await followNetwork(sql, inProcessSandbox(SANDBOX_PASSPHRASE));
  const ledger = new SandboxLedger(sql, {
    ledgerSeconds: settings.ledgerSeconds ?? 0, ...(settings.maxOpsPerLedger ? { maxOpsPerLedger: settings.maxOpsPerLedger } : {}),
  });
  const treasury = await treasuryKey(sql, secretsKey, 'sandbox');
  const fresh = !(await ledger.store.getKey('market_maker'));
  if (fresh && settings.unfundedTreasury) await ledger.store.putKey(UNFUNDED_TREASURY, treasury.publicKey(), null);
  const unfunded = (await ledger.store.getKey(UNFUNDED_TREASURY))?.publicKey === treasury.publicKey();
  const genesisTreasury = unfunded ? NativeKeypair.random().secret() : treasury.secret();
  const keys = await bootstrapSandbox(ledger, { treasurySecret: genesisTreasury, ...(rates ? { rates } : {}) });
  if (!unfunded && keys.treasury.publicKey !== treasury.publicKey()) throw new Error('sandbox treasury differs from the stored treasury key');
  // the float is the sandbox's convenience; an unfunded treasury stays as its operator funds it
  if (!unfunded) for (const asset of [SANDBOX_ASSETS.USDC, SANDBOX_ASSETS.EURC]) {
    const line = await ledger.store.getTrustline(treasury.publicKey(), `${asset.code}:${asset.issuer}`);
    if (line && line.balance === 0n) await ledger.fund(treasury.publicKey(), asset, SANDBOX_FLOAT);
  }
  const sandboxRoutes = sandboxApiPaths(ledger, createFriendbotRouter(ledger, await ensureFriendbot(ledger)), createSandboxHorizonRouter(ledger));
  return { network: new SandboxNetwork(ledger, horizonUrl), ledger, sandbox: inProcessLink(ledger), treasury, sandboxRoutes };
}

const IN_PROCESS_CHAIN = prepared<{ seq: number }, Record<string, never>>((k) => k.selectFrom('sbx_ledgers').select('seq').limit(1));

/**
 * Where the sandbox runs: as configured, or by default in its own thread, unless this database
 * already holds the chain an in-process sandbox wrote (its deposit accounts exist only there).
 */
export async function sandboxPlacement(sql: Sql, setting: SandboxNetworkSetting): Promise<Exclude<SandboxNetworkSetting, { mode: 'default' }>> {
  if (setting.mode !== 'default') return setting;
  return (await sql.get(IN_PROCESS_CHAIN, {})) ? { mode: 'in-process' } : { mode: 'thread' };
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
 * Sandbox mode: the sandbox in its own thread by default, reached over HTTP; a `fundkit sandbox`
 * at a URL; or in this process (FUNDKIT_SANDBOX_NETWORK, sandboxPlacement).
 */
export async function setupSandboxMode(sql: Sql, secretsKey: Buffer, config: Config, horizonUrl: string, logger: Logger, shared?: SandboxLink): Promise<StellarSetup> {
  const settings = { rates: config.sandboxRates, ledgerSeconds: config.sandboxLedgerSeconds, maxOpsPerLedger: config.sandboxLedgerMaxOps };
  const placement = await sandboxPlacement(sql, config.sandboxNetwork);
  if (placement.mode === 'in-process') return setupSandbox(sql, secretsKey, horizonUrl, settings);
  // a shared one stands in for the thread this server would start (never for a configured URL)
  if (shared && config.sandboxNetwork.mode === 'default') return setupWiredSandbox(sql, secretsKey, { ...settings, dbPath: config.sandboxDbPath, logger, link: borrowed(shared) });
  return setupWiredSandbox(sql, secretsKey, { ...settings, dbPath: config.sandboxDbPath, logger, ...(placement.mode === 'url' ? { url: placement.url } : {}) });
}

/** The first ask comes soon after a submission (an instant sandbox has applied it by then), then less often. */
const sandboxPoll = (attempt: number) => Math.min(250, 5 * 2 ** attempt);

/**
 * The sandbox as a network of its own, reached over HTTP like testnet: in a worker thread of this
 * process (its own SQLite file), or a `fundkit sandbox` several servers share. The follower,
 * submission and account reads go through Stellar RPC, path finding through its Horizon. The
 * treasury key is this server's; the sandbox's faucet gives it what genesis gave it in process.
 */
export async function setupWiredSandbox(sql: Sql, secretsKey: Buffer, settings: WiredSandboxSettings): Promise<StellarSetup> {
  const link = settings.link ?? (settings.url ? await remoteSandbox(settings.url) : await startSandboxThread({
    dbPath: settings.dbPath, ledgerSeconds: settings.ledgerSeconds ?? 0, rates: settings.rates ?? null,
    ...(settings.maxOpsPerLedger ? { maxOpsPerLedger: settings.maxOpsPerLedger } : {}),
  }, (error) => settings.logger.error({ err: error }, 'the sandbox thread failed')));
  try {
    const url = link.url!;
    // the database's one chain: a server on another refuses before it keeps a key or an account on it
    await followNetwork(sql, await sandboxChain(url, SANDBOX_PASSPHRASE, settings.link || settings.url ? `url:${url}` : `thread:${settings.dbPath}`));
    const treasury = await treasuryKey(sql, secretsKey, 'sandbox');
    const profile: NetworkProfile = {
      kind: 'sandbox', passphrase: SANDBOX_PASSPHRASE, rpcUrl: `${url}/rpc`, horizonUrl: url, friendbotUrl: `${url}/friendbot`,
      issuers: { USDC: SANDBOX_ASSETS.USDC.issuer!, EURC: SANDBOX_ASSETS.EURC.issuer! }, api: 'rpc',
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
    await fundSandboxTreasury(network, link, treasury.publicKey());
    return { network, ledger: null, sandbox: link, treasury, sandboxRoutes: null };
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
    start: () => undefined,
    close: async () => {
      for (const off of unsubscribe.splice(0)) off();
    },
  };
}

/** A `fundkit sandbox` at `url`: its passphrase and clock from GET /sandbox/info, its ledger closes from its Horizon's stream. */
async function remoteSandbox(url: string): Promise<SandboxLink> {
  let info: { passphrase?: string; ledger_seconds?: number };
  try {
    const res = await fetch(`${url}/sandbox/info`, { signal: AbortSignal.timeout(CHECK_MS) });
    if (!res.ok) throw new Error(`GET /sandbox/info answered ${res.status}`);
    info = await res.json() as typeof info;
  } catch (error) {
    throw new ConfigError(`FUNDKIT_SANDBOX_NETWORK=${url} is not a reachable \`fundkit sandbox\` (${error instanceof Error ? error.message : String(error)}): start one with \`pnpm fundkit sandbox\``);
  }
  if (info.passphrase !== SANDBOX_PASSPHRASE) throw new ConfigError(`FUNDKIT_SANDBOX_NETWORK=${url} serves "${info.passphrase}", not the sandbox: for another network use FUNDKIT_STELLAR=custom`);
  const ledgers = ledgerStream(url);
  return httpLink(url, { clocked: (info.ledger_seconds ?? 0) > 0, onLedger: ledgers.onLedger, close: async () => ledgers.close() });
}

/** What genesis gives the treasury on an in-process sandbox: 1,000,000 XLM, and the USDC and EURC float. */
async function fundSandboxTreasury(network: StellarNetwork, link: SandboxLink, address: string): Promise<void> {
  const account = await network.loadAccount(address);
  if (!account) await link.fund(address, SANDBOX_ASSETS.XLM, toStroops('1000000'));
  for (const asset of [SANDBOX_ASSETS.USDC, SANDBOX_ASSETS.EURC]) {
    const line = account?.balances.find((b) => b.asset.issuer === asset.issuer && b.asset.code === asset.code);
    if (!line || line.balance === 0n) await link.fund(address, asset, SANDBOX_FLOAT);
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
  return { network, ledger: null, sandbox: null, treasury, sandboxRoutes: null };
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
