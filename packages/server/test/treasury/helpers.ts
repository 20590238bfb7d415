import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.js';
import { openDataStore } from '../../src/db/store.js';
import { deriveKey } from '../../src/lib/crypto.js';
import { setupSandbox } from '../../src/pipeline/stellar.js';

export interface SandboxDatabase {
  dir: string;
  /** the server's and the CLI's configuration for this database */
  env: Record<string, string>;
  treasury: string;
}

/**
 * A sandbox database created as a server's first start would, but whose treasury genesis left
 * unfunded (setupSandbox's test-only unfundedTreasury): its account does not exist, as on a new
 * testnet deployment. A SQLite file, or a fresh PostgreSQL database in the PostgreSQL run
 * (FUNDKIT_TEST_ENGINE=postgres). A pool of 2 per asset and 2 channels keep the numbers small.
 */
export async function unfundedSandbox(extra: Record<string, string> = {}): Promise<SandboxDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'fundkit-treasury-'));
  const masterKey = randomBytes(32);
  const databaseUrl = process.env.FUNDKIT_TEST_ENGINE === 'postgres'
    ? await (await import('../helpers/postgres.js')).freshPostgresDatabase('treasury') : '';
  const env = {
    FUNDKIT_STELLAR: 'sandbox', FUNDKIT_DB: join(dir, 'fundkit.db'), FUNDKIT_DATABASE_URL: databaseUrl, FUNDKIT_DATA_DIR: dir,
    FUNDKIT_MASTER_KEY: masterKey.toString('hex'), FUNDKIT_DEPOSIT_POOL_SIZE: '2', FUNDKIT_TREASURY_CHANNELS: '2', ...extra,
  };
  const store = await openDataStore(loadConfig(env), pino({ level: 'silent' }));
  try {
    const setup = await setupSandbox(store.sql, deriveKey(masterKey, 'stellar-keys'), 'http://localhost/sandbox/horizon', { unfundedTreasury: true });
    return { dir, env, treasury: setup.treasury.publicKey() };
  } finally {
    await store.close();
  }
}
