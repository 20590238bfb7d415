import { parseDuration } from './lib/time.js';
import { parseRates, RatesError } from './pricing/rates.js';

export type StellarMode = 'sandbox' | 'testnet' | 'pubnet';

export interface RateLimitConfig {
  /** tokens added per second */
  ratePerSecond: number;
  /** bucket size */
  burst: number;
}

export interface Config {
  port: number;
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
  /** FUNDKIT_FRIENDBOT_URL: the friendbot `fundkit treasury --fund` asks on testnet (default https://friendbot.stellar.org); null = that default */
  friendbotUrl: string | null;
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
  /** deposit accounts kept active on chain per asset, ready for creates (FUNDKIT_DEPOSIT_POOL_SIZE; 0 = none) */
  depositPoolSize: number;
  rateLimit: RateLimitConfig;
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
    throw new ConfigError('FUNDKIT_MASTER_KEY must be 32 bytes, as 64 hex characters or base64');
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
  if (mode !== 'sandbox' && mode !== 'testnet' && mode !== 'pubnet') {
    throw new ConfigError(`FUNDKIT_STELLAR must be sandbox, testnet or pubnet, got "${raw}"`);
  }
  return mode;
}

function parseHorizonUrl(raw: string | undefined, name = 'FUNDKIT_HORIZON_URL'): string | null {
  if (raw === undefined || raw === '') return null;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    return raw;
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
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

/** Reads configuration from the environment (flags are mapped onto the same names by the CLI). */
export function loadConfig(env: Env = process.env): Config {
  const dataDir = env.FUNDKIT_DATA_DIR || '.fundkit';
  const rate = positiveInt(env, 'FUNDKIT_RATE_LIMIT', 100);
  return {
    // 0 = an ephemeral port (tests, embedding)
    port: positiveInt(env, 'PORT', 4010, 65535, 0),
    dbPath: env.FUNDKIT_DB || `${dataDir}/fundkit.db`,
    databaseUrl: parseDatabaseUrl(env.FUNDKIT_DATABASE_URL),
    databasePoolSize: positiveInt(env, 'FUNDKIT_DATABASE_POOL_SIZE', 10, 1000),
    dataDir,
    logoDir: env.FUNDKIT_LOGO_DIR || `${dataDir}/logos`,
    bootstrapPath: env.FUNDKIT_BOOTSTRAP || null,
    operatorKey: env.FUNDKIT_OPERATOR_KEY || null,
    stellar: parseStellar(env.FUNDKIT_STELLAR),
    horizonUrl: parseHorizonUrl(env.FUNDKIT_HORIZON_URL),
    friendbotUrl: parseHorizonUrl(env.FUNDKIT_FRIENDBOT_URL, 'FUNDKIT_FRIENDBOT_URL'),
    masterKey: parseMasterKey(env.FUNDKIT_MASTER_KEY),
    quoteTtlSeconds: positiveInt(env, 'FUNDKIT_QUOTE_TTL_SECONDS', 60, 86_400),
    quoteSlippageBps: positiveInt(env, 'FUNDKIT_QUOTE_SLIPPAGE_BPS', 50, 5_000, 0),
    sandboxRates: sandboxRates(env.FUNDKIT_SANDBOX_RATES),
    sandboxLedgerSeconds: positiveInt(env, 'FUNDKIT_SANDBOX_LEDGER_SECONDS', 0, 3_600, 0),
    sandboxLedgerMaxOps: positiveInt(env, 'FUNDKIT_SANDBOX_LEDGER_MAX_OPS', 1_000, 1_000_000),
    metrics: parseSwitch(env, 'FUNDKIT_METRICS'),
    metricsToken: env.FUNDKIT_METRICS_TOKEN || null,
    readyMaxLedgersBehind: positiveInt(env, 'FUNDKIT_READY_MAX_LEDGERS_BEHIND', 10, 1_000_000),
    treasuryChannels: positiveInt(env, 'FUNDKIT_TREASURY_CHANNELS', 8, 100),
    treasuryBatchItems: positiveInt(env, 'FUNDKIT_TREASURY_BATCH_ITEMS', 100, 100),
    webhookRetryScheduleMs: parseSchedule(env.FUNDKIT_WEBHOOK_RETRY_SCHEDULE),
    // each pooled account locks 1.5 XLM of the treasury's reserves (1 XLM for an XLM one) on a real network
    depositPoolSize: positiveInt(env, 'FUNDKIT_DEPOSIT_POOL_SIZE', 20, 1000, 0),
    rateLimit: { ratePerSecond: rate, burst: positiveInt(env, 'FUNDKIT_RATE_LIMIT_BURST', rate * 2) },
    logLevel: parseLogLevel(env.LOG_LEVEL),
  };
}
