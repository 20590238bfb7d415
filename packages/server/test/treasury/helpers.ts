import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { startStandaloneSandbox } from '@fundkit/sandbox';
import { loadConfig } from '../../src/config.js';
import { openDataStore } from '../../src/db/store.js';
import { deriveKey } from '../../src/lib/crypto.js';
import { setupWiredSandbox } from '../../src/pipeline/stellar.js';

export interface SandboxDatabase {
  dir: string;
  /** the server's and the CLI's configuration for this database */
  env: Record<string, string>;
  treasury: string;
  /** stops its sandbox (after the servers on it) */
  close(): Promise<void>;
}

/**
 * A sandbox database created as a server's first start would, but whose treasury the sandbox's
 * faucet was not asked to fund (FUNDKIT_SANDBOX_FUND_TREASURY=off, kept in `env` so the servers
 * and `fundkit treasury` runs on it do not fund it either): its account does not exist on the
 * chain, as on a new testnet deployment. A SQLite file, or a fresh PostgreSQL
 * database in the PostgreSQL run (FUNDKIT_TEST_ENGINE=postgres). Its sandbox is a `fundkit
 * sandbox` (FUNDKIT_SANDBOX_NETWORK=<url>), so a server and `fundkit treasury` reach the same one
 * at once. A pool of 2 per asset and 2 channels keep the numbers small.
 */
export async function unfundedSandbox(extra: Record<string, string> = {}): Promise<SandboxDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'fundkit-treasury-'));
  const masterKey = randomBytes(32);
  const databaseUrl = process.env.FUNDKIT_TEST_ENGINE === 'postgres'
    ? await (await import('../helpers/postgres.js')).freshPostgresDatabase('treasury') : '';
  const net = await startStandaloneSandbox({ dbPath: ':memory:', port: 0 });
  const env = {
    FUNDKIT_STELLAR: 'sandbox', FUNDKIT_DB: join(dir, 'fundkit.db'), FUNDKIT_DATABASE_URL: databaseUrl, FUNDKIT_DATA_DIR: dir,
    FUNDKIT_MASTER_KEY: masterKey.toString('hex'), FUNDKIT_DEPOSIT_POOL_SIZE: '2', FUNDKIT_TREASURY_CHANNELS: '2', FUNDKIT_SANDBOX_NETWORK: net.url,
    FUNDKIT_SANDBOX_FUND_TREASURY: 'off', ...extra,
  };
  const config = loadConfig(env);
  const logger = pino({ level: 'silent' });
  const store = await openDataStore(config, logger);
  try {
    const setup = await setupWiredSandbox(store.sql, deriveKey(masterKey, 'stellar-keys'), { dbPath: config.sandboxDbPath, url: net.url, logger, unfundedTreasury: true });
    await setup.sandbox!.close();
    return { dir, env, treasury: setup.treasury.publicKey(), close: () => net.close() };
  } finally {
    await store.close();
  }
}
