import { parseDuration } from './lib/time.js';
import { parseRates, RatesError } from './pricing/rates.js';
import { NetworkSettingsError, resolveNetwork, type Issuers, type NetworkProfile, type StellarApi } from './stellar/networks.js';
import { StrKey } from '@stellar/stellar-sdk';
import { webhookSettings, WebhookSettingsError, type WebhookSettings } from './resources/webhooks/settings.js';
import express from 'express';

export type StellarMode = 'sandbox' | 'testnet' | 'pubnet' | 'custom';

export interface RateLimitConfig {
  /** tokens added per second */
  ratePerSecond: number;
  /** bucket size */
  burst: number;
}

/** Express's `trust proxy`: false, true (every hop), a hop count, or addresses/subnets/names to trust. */
export type TrustProxySetting = boolean | number | string[];

/** Limits of sign-in failures, sign-ups and verifications, enforced by resources/accounts/limits.ts. */
export interface AuthLimitSettings {
  /** failed sign-ins an account takes per hour before backoff (FUNDKIT_SIGNIN_ACCOUNT_FAILURES) */
  signInAccountFailures: number;
  /** failed sign-ins a client takes per hour before backoff (FUNDKIT_SIGNIN_CLIENT_FAILURES) */
  signInClientFailures: number;
  /** sign-ups per client per hour (FUNDKIT_SIGNUP_LIMIT) */
  signUpsPerClient: number;
  /** email verifications per client per hour (FUNDKIT_VERIFY_EMAIL_LIMIT) */
  verificationsPerClient: number;
}

/** Per-client bounds on /sandbox/* for clients not on this machine (http/sandbox-limits.ts). */
export interface SandboxProxyLimits {
  /** requests a second per client (FUNDKIT_SANDBOX_PROXY_RATE); the burst is twice this */
  ratePerSecond: number;
  /** requests a client may have open at once, event streams included (FUNDKIT_SANDBOX_PROXY_OPEN) */
  open: number;
}

export interface Config {
  port: number;
  /**
   * HOST: the address to listen on; null = the default of the mode: 127.0.0.1 on the sandbox
   * (its docs pre-fill a secret key, and nothing in it is for another machine), every interface
   * otherwise (a server behind a load balancer)
   */
  host: string | null;
  /** FUNDKIT_TRUST_PROXY: which proxies' X-Forwarded-For names the client (limits key on it) */
  trustProxy: TrustProxySetting;
  /** SQLite path, or ':memory:' */
  dbPath: string;
  /** FUNDKIT_DATABASE_URL: a PostgreSQL database (postgres://…) in place of the SQLite file; null = SQLite */
  databaseUrl: string | null;
  /** FUNDKIT_DATABASE_POOL_SIZE: connections this server opens to PostgreSQL at most */
  databasePoolSize: number;
  /** Directory for generated files (.fundkit): sandbox keys, dev master key, logos. */
  dataDir: string;
  logoDir: string;
  bootstrapPath: string | null;
  operatorKey: string | null;
  stellar: StellarMode;
  horizonUrl: string | null;
  /** testnet, pubnet or custom: the network and the API the server reaches it through (null on the sandbox) */
  network: NetworkProfile | null;
  /** 32-byte key for AES-256-GCM; null means "generate one under dataDir" (dev only). */
  masterKey: Buffer | null;
  quoteTtlSeconds: number;
  /** slippage margin of conversion quotes, in basis points (default 50) */
  quoteSlippageBps: number;
  /** the sandbox market maker's rate table (FUNDKIT_SANDBOX_RATES); null = the sandbox default */
  sandboxRates: Record<string, string> | null;
  /** seconds between sandbox ledger closes (FUNDKIT_SANDBOX_LEDGER_SECONDS); 0 = one ledger per transaction, at once */
  sandboxLedgerSeconds: number;
  /** operations one sandbox ledger applies at most (FUNDKIT_SANDBOX_LEDGER_MAX_OPS) */
  sandboxLedgerMaxOps: number;
  /**
   * Where the sandbox network runs (FUNDKIT_SANDBOX_NETWORK): `thread` (the default: a worker
   * thread of this process, reached over loopback HTTP) or a URL (a `fundkit sandbox` several
   * servers share). Either way the server reaches it over the wire.
   */
  sandboxNetwork: SandboxNetworkSetting;
  /** the sandbox thread's SQLite file (FUNDKIT_SANDBOX_DB): beside the server's database by default */
  sandboxDbPath: string;
  /**
   * Whether each start has the sandbox's faucet give the treasury what it lacks (FUNDKIT_SANDBOX_FUND_TREASURY,
   * on by default); off leaves it to `fundkit treasury --fund`, as on a new testnet deployment (its tests)
   */
  sandboxFundTreasury: boolean;
  /** Prometheus metrics and their HTTP hooks (FUNDKIT_METRICS=off turns them off; /metrics then answers 404) */
  metrics: boolean;
  /** the Bearer token GET /metrics requires (FUNDKIT_METRICS_TOKEN); null: the operator key, else loopback clients only */
  metricsToken: string | null;
  /** /readyz fails when the observer is further behind the network's tip (FUNDKIT_READY_MAX_LEDGERS_BEHIND) */
  readyMaxLedgersBehind: number;
  /**
   * how long an operation that needs an intent's deposit account on chain waits for it (ms); by
   * default a few ledgers of the clock served (resources/funding-intents/payable-wait.ts). Tests set it.
   */
  payableWaitMs?: number;
  /** channel accounts the treasury submits over (FUNDKIT_TREASURY_CHANNELS): transactions it lands per ledger */
  treasuryChannels: number;
  /** items one treasury transaction carries at most (FUNDKIT_TREASURY_BATCH_ITEMS; 1 = no batching) */
  treasuryBatchItems: number;
  webhookRetryScheduleMs: number[];
  /** where webhooks may go and how much of the delivery pool an application may hold (resources/webhooks/settings.ts) */
  webhooks: WebhookSettings;
  /** deposit accounts kept active on chain per asset, ready for creates (FUNDKIT_DEPOSIT_POOL_SIZE; 0 = none) */
  depositPoolSize: number;
  /** deposit keys a server hands out on its API thread before it makes the rest on a thread of their own (FUNDKIT_KEY_THREAD_AFTER; 0 = from the first) */
  keyThreadAfter: number;
  rateLimit: RateLimitConfig;
  /** open unpaid funding intents per application and environment (each holds a sponsored deposit account) */
  maxOpenIntents: number;
  /** limits of sign-in failures, sign-ups and verifications (resources/accounts/limits.ts) */
  authLimits: AuthLimitSettings;
  /** hosted checkout page loads per client per minute, across every server (FUNDKIT_CHECKOUT_PAGE_LIMIT) */
  checkoutPagesPerMinute: number;
  /** per-client bounds on /sandbox/* for clients not on this machine (http/sandbox-limits.ts) */
  sandboxProxy: SandboxProxyLimits;
  /** password hashes at once (FUNDKIT_PASSWORD_HASH_CONCURRENCY) and waiting for a turn (FUNDKIT_PASSWORD_HASH_QUEUE) */
  passwordHashes: { concurrency: number; queue: number };
  logLevel: string;
}

/** Thrown for invalid configuration; the message is one line naming the variable. */
export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

const DEFAULT_RETRY_SCHEDULE = '1m,5m,30m,2h,6h,12h,24h';
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function parseSwitch(env: Env, name: string): boolean {
  const raw = (env[name] ?? 'on').toLowerCase();
  if (!['on', 'off', 'true', 'false', '1', '0'].includes(raw)) throw new ConfigError(`${name} must be on or off, got "${env[name]}"`);
  return ['on', 'true', '1'].includes(raw);
}

function positiveInt(env: Env, name: string, fallback: number, max = Number.MAX_SAFE_INTEGER, min = 1): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return n;
}

function parseMasterKey(raw: string | undefined): Buffer | null {
  if (raw === undefined || raw === '') return null;
  const key = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  if (key.length !== 32) {
    throw new ConfigError('FUNDKIT_MASTER_KEY must be 32 bytes, as 64 hex characters or base64: make one with `openssl rand -hex 32`');
  }
  return key;
}

function parseSchedule(raw: string | undefined): number[] {
  const text = raw === undefined || raw === '' ? DEFAULT_RETRY_SCHEDULE : raw;
  try {
    return text.split(',').map((part) => parseDuration(part));
  } catch (error) {
    throw new ConfigError(`FUNDKIT_WEBHOOK_RETRY_SCHEDULE is invalid: ${(error as Error).message}`);
  }
}

function parseStellar(raw: string | undefined): StellarMode {
  const mode = raw === undefined || raw === '' ? 'sandbox' : raw;
  if (mode !== 'sandbox' && mode !== 'testnet' && mode !== 'pubnet' && mode !== 'custom') {
    throw new ConfigError(`FUNDKIT_STELLAR must be sandbox, testnet, pubnet or custom, got "${raw}"`);
  }
  return mode;
}

function parseHttpUrl(name: string, raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return null;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    return raw.replace(/\/+$/, '');
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  }
}

export type SandboxNetworkSetting = { mode: 'thread' } | { mode: 'url'; url: string } | { mode: 'default' };

/** FUNDKIT_SANDBOX_NETWORK; unset is `default`: a thread this server starts, unless a test shares one (ServerOptions.sandbox). */
function parseSandboxNetwork(raw: string | undefined): SandboxNetworkSetting {
  if (raw === undefined || raw === '') return { mode: 'default' };
  if (raw === 'thread') return { mode: raw };
  if (raw === 'in-process') {
    // the mode that kept the sandbox's chain in the server's own database: removed (issue 40, item 2)
    throw new ConfigError('FUNDKIT_SANDBOX_NETWORK=in-process is gone: the server reaches its sandbox over HTTP only. '
      + 'Unset FUNDKIT_SANDBOX_NETWORK (or set it to thread) for a sandbox in a thread of this server, '
      + 'or set it to the URL of a `pnpm fundkit sandbox` (http://localhost:8000 by default)');
  }
  if (/^https?:/.test(raw)) return { mode: 'url', url: parseHttpUrl('FUNDKIT_SANDBOX_NETWORK', raw)! };
  throw new ConfigError(`FUNDKIT_SANDBOX_NETWORK must be thread or the http(s) URL of a \`fundkit sandbox\`, got "${raw}"`);
}

/** The thread's chain beside the server's SQLite file (fundkit.db → fundkit.sandbox.db); in memory with it; under the data dir on PostgreSQL. */
function sandboxDbPath(env: Env, dbPath: string, databaseUrl: unknown, dataDir: string): string {
  if (env.FUNDKIT_SANDBOX_DB) return env.FUNDKIT_SANDBOX_DB;
  if (databaseUrl) return `${dataDir}/fundkit.sandbox.db`;
  if (dbPath === ':memory:' || dbPath.startsWith('file::memory:')) return ':memory:';
  return /\.(db|sqlite3?)$/.test(dbPath) ? dbPath.replace(/\.(db|sqlite3?)$/, '.sandbox.$1') : `${dbPath}.sandbox.db`;
}

/** FUNDKIT_ASSETS: "USDC:G…,EURC:G…" (XLM is always there). */
function parseAssets(raw: string | undefined): Partial<Issuers> | null {
  if (raw === undefined || raw.trim() === '') return null;
  const issuers: Partial<Issuers> = {};
  for (const part of raw.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [code, issuer, extra] = part.split(':');
    if (code !== 'USDC' && code !== 'EURC') throw new ConfigError(`FUNDKIT_ASSETS names USDC and EURC as CODE:ISSUER (XLM is always there), got "${part}"`);
    if (extra !== undefined || !issuer || !StrKey.isValidEd25519PublicKey(issuer)) {
      // the form, with where a local network's issuers are printed: a bare "USDC" is the usual slip
      throw new ConfigError(`FUNDKIT_ASSETS: the issuer of ${code} must be an account id (G…), got "${part}". `
        + 'Write each asset as CODE:ISSUER, comma-separated: FUNDKIT_ASSETS=USDC:G…,EURC:G… (`pnpm fundkit sandbox` prints its own)');
    }
    issuers[code] = issuer;
  }
  return issuers;
}

function parseApi(raw: string | undefined): StellarApi | null {
  if (raw === undefined || raw === '') return null;
  if (raw !== 'rpc' && raw !== 'horizon') throw new ConfigError(`FUNDKIT_STELLAR_API must be rpc or horizon, got "${raw}"`);
  return raw;
}

/** The network of testnet/pubnet/custom with every override applied, checked as a whole. */
function parseNetwork(env: Record<string, string | undefined>, mode: StellarMode): NetworkProfile | null {
  const settings = {
    passphrase: env.FUNDKIT_NETWORK_PASSPHRASE || null, rpcUrl: parseHttpUrl('FUNDKIT_RPC_URL', env.FUNDKIT_RPC_URL),
    horizonUrl: parseHttpUrl('FUNDKIT_HORIZON_URL', env.FUNDKIT_HORIZON_URL), friendbotUrl: parseHttpUrl('FUNDKIT_FRIENDBOT_URL', env.FUNDKIT_FRIENDBOT_URL),
    issuers: parseAssets(env.FUNDKIT_ASSETS), api: parseApi(env.FUNDKIT_STELLAR_API),
  };
  if (mode === 'sandbox') return null;
  try {
    return resolveNetwork(mode, settings);
  } catch (error) {
    if (error instanceof NetworkSettingsError) throw new ConfigError(error.message);
    throw error;
  }
}

function parseDatabaseUrl(raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return null;
  if (!isPostgresUrl(raw)) {
    throw new ConfigError(`FUNDKIT_DATABASE_URL must be a PostgreSQL URL (postgres://user:password@host:port/database), got "${raw.replace(/:[^:@/]*@/, ':***@')}"`);
  }
  return raw;
}

/** postgres:// or postgresql://, as libpq and node-postgres accept them. */
export function isPostgresUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return (url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** The shortest operator key accepted: 128 bits as hex. */
export const MIN_OPERATOR_KEY_LENGTH = 32;

function parseOperatorKey(raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return null;
  if (raw.length < MIN_OPERATOR_KEY_LENGTH || /\s/.test(raw)) {
    throw new ConfigError(`FUNDKIT_OPERATOR_KEY must be at least ${MIN_OPERATOR_KEY_LENGTH} characters without spaces (it has ${raw.length}); make one with: openssl rand -hex 32`);
  }
  return raw;
}

/**
 * FUNDKIT_TRUST_PROXY, in Express's forms: unset/false/off (trust no proxy: the client is the
 * socket's peer), true/on (trust every hop: only when nothing but your proxy can reach the
 * server), a hop count (1 = one load balancer in front), or a comma-separated list of addresses,
 * subnets (CIDR) and the names loopback, linklocal, uniquelocal.
 */
function parseTrustProxy(raw: string | undefined): TrustProxySetting {
  const text = (raw ?? '').trim();
  if (text === '' || /^(false|off|0)$/i.test(text)) return false;
  if (/^(true|on)$/i.test(text)) return true;
  if (/^\d+$/.test(text)) return Number(text);
  const list = text.split(',').map((part) => part.trim()).filter(Boolean);
  try {
    // Express compiles the list (proxy-addr) and throws on an address it cannot read
    express().set('trust proxy', list);
  } catch (error) {
    throw new ConfigError(`FUNDKIT_TRUST_PROXY must be true, false, a hop count, or addresses/subnets/loopback/linklocal/uniquelocal separated by commas: ${(error as Error).message}`);
  }
  return list;
}

function parseHost(raw: string | undefined): string | null {
  if (raw === undefined || raw.trim() === '') return null;
  if (/[\s/]/.test(raw)) throw new ConfigError(`HOST must be an address or host name to listen on (127.0.0.1, 0.0.0.0, ::), got "${raw}"`);
  return raw.trim();
}

function parseLogLevel(raw: string | undefined): string {
  const level = raw === undefined || raw === '' ? 'info' : raw;
  if (!LOG_LEVELS.includes(level)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  return level;
}

function sandboxRates(raw: string | undefined): Record<string, string> | null {
  try {
    return parseRates(raw);
  } catch (error) {
    if (error instanceof RatesError) throw new ConfigError(error.message);
    throw error;
  }
}

function parseWebhookSettings(env: Env): WebhookSettings {
  try {
    return webhookSettings(env);
  } catch (error) {
    if (error instanceof WebhookSettingsError) throw new ConfigError(error.message);
    throw error;
  }
}

/**
 * HOST, else 127.0.0.1 on the sandbox (its docs pre-fill a secret key and nothing in it is meant
 * for another machine; HOST=0.0.0.0 opens it) and every IPv4 interface otherwise, as before.
 */
export function listenHost(config: Pick<Config, 'host' | 'stellar'>): string {
  return config.host ?? (config.stellar === 'sandbox' ? '127.0.0.1' : '0.0.0.0');
}

/** Whether a listen address is every interface (0.0.0.0, ::), not one of them. */
export function isWildcardHost(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

/** Reads configuration from the environment (flags are mapped onto the same names by the CLI). */
export function loadConfig(env: Env = process.env): Config {
  const dataDir = env.FUNDKIT_DATA_DIR || '.fundkit';
  const rate = positiveInt(env, 'FUNDKIT_RATE_LIMIT', 100);
  const stellar = parseStellar(env.FUNDKIT_STELLAR);
  const dbPath = env.FUNDKIT_DB || `${dataDir}/fundkit.db`;
  const databaseUrl = parseDatabaseUrl(env.FUNDKIT_DATABASE_URL);
  return {
    // 0 = an ephemeral port (tests, embedding)
    port: positiveInt(env, 'PORT', 4010, 65535, 0),
    host: parseHost(env.HOST),
    trustProxy: parseTrustProxy(env.FUNDKIT_TRUST_PROXY),
    dbPath,
    databaseUrl,
    databasePoolSize: positiveInt(env, 'FUNDKIT_DATABASE_POOL_SIZE', 10, 1000),
    dataDir,
    logoDir: env.FUNDKIT_LOGO_DIR || `${dataDir}/logos`,
    bootstrapPath: env.FUNDKIT_BOOTSTRAP || null,
    operatorKey: parseOperatorKey(env.FUNDKIT_OPERATOR_KEY),
    stellar,
    horizonUrl: parseHttpUrl('FUNDKIT_HORIZON_URL', env.FUNDKIT_HORIZON_URL),
    network: parseNetwork(env, stellar),
    masterKey: parseMasterKey(env.FUNDKIT_MASTER_KEY),
    quoteTtlSeconds: positiveInt(env, 'FUNDKIT_QUOTE_TTL_SECONDS', 60, 86_400),
    quoteSlippageBps: positiveInt(env, 'FUNDKIT_QUOTE_SLIPPAGE_BPS', 50, 5_000, 0),
    sandboxRates: sandboxRates(env.FUNDKIT_SANDBOX_RATES),
    sandboxLedgerSeconds: positiveInt(env, 'FUNDKIT_SANDBOX_LEDGER_SECONDS', 0, 3_600, 0),
    sandboxLedgerMaxOps: positiveInt(env, 'FUNDKIT_SANDBOX_LEDGER_MAX_OPS', 1_000, 1_000_000),
    sandboxNetwork: parseSandboxNetwork(env.FUNDKIT_SANDBOX_NETWORK),
    sandboxDbPath: sandboxDbPath(env, dbPath, databaseUrl, dataDir),
    sandboxFundTreasury: parseSwitch(env, 'FUNDKIT_SANDBOX_FUND_TREASURY'),
    metrics: parseSwitch(env, 'FUNDKIT_METRICS'),
    metricsToken: env.FUNDKIT_METRICS_TOKEN || null,
    readyMaxLedgersBehind: positiveInt(env, 'FUNDKIT_READY_MAX_LEDGERS_BEHIND', 10, 1_000_000),
    treasuryChannels: positiveInt(env, 'FUNDKIT_TREASURY_CHANNELS', 8, 100),
    treasuryBatchItems: positiveInt(env, 'FUNDKIT_TREASURY_BATCH_ITEMS', 100, 100),
    webhookRetryScheduleMs: parseSchedule(env.FUNDKIT_WEBHOOK_RETRY_SCHEDULE),
    webhooks: parseWebhookSettings(env),
    // each pooled account locks 1.5 XLM of the treasury's reserves (1 XLM for an XLM one) on a real network
    depositPoolSize: positiveInt(env, 'FUNDKIT_DEPOSIT_POOL_SIZE', 20, 1000, 0),
    keyThreadAfter: positiveInt(env, 'FUNDKIT_KEY_THREAD_AFTER', 256, 1_000_000, 0),
    rateLimit: { ratePerSecond: rate, burst: positiveInt(env, 'FUNDKIT_RATE_LIMIT_BURST', rate * 2) },
    maxOpenIntents: positiveInt(env, 'FUNDKIT_MAX_OPEN_INTENTS', 10_000, 100_000_000),
    authLimits: {
      signInAccountFailures: positiveInt(env, 'FUNDKIT_SIGNIN_ACCOUNT_FAILURES', 5, 1_000),
      signInClientFailures: positiveInt(env, 'FUNDKIT_SIGNIN_CLIENT_FAILURES', 20, 100_000),
      signUpsPerClient: positiveInt(env, 'FUNDKIT_SIGNUP_LIMIT', 10, 100_000),
      verificationsPerClient: positiveInt(env, 'FUNDKIT_VERIFY_EMAIL_LIMIT', 30, 100_000),
    },
    checkoutPagesPerMinute: positiveInt(env, 'FUNDKIT_CHECKOUT_PAGE_LIMIT', 60, 100_000),
    sandboxProxy: {
      ratePerSecond: positiveInt(env, 'FUNDKIT_SANDBOX_PROXY_RATE', 50, 100_000),
      open: positiveInt(env, 'FUNDKIT_SANDBOX_PROXY_OPEN', 32, 10_000),
    },
    passwordHashes: {
      concurrency: positiveInt(env, 'FUNDKIT_PASSWORD_HASH_CONCURRENCY', 2, 64),
      queue: positiveInt(env, 'FUNDKIT_PASSWORD_HASH_QUEUE', 32, 10_000, 0),
    },
    logLevel: parseLogLevel(env.LOG_LEVEL),
  };
}
