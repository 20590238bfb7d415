import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/db/connection.js';
import { SqliteSql } from '../../src/db/sql.js';
import { deriveKey } from '../../src/lib/crypto.js';
import { setupSandbox } from '../../src/pipeline/stellar.js';

export interface SandboxDatabase {
  dir: string;
  /** the server's and the CLI's configuration for this database */
  env: Record<string, string>;
  treasury: string;
}

/**
 * A sandbox database (SQLite file) created as a server's first start would, but whose treasury
 * genesis left unfunded (setupSandbox's test-only unfundedTreasury): its account does not exist,
 * as on a new testnet deployment. A pool of 2 per asset and 2 channels keep the numbers small.
 */
export async function unfundedSandbox(extra: Record<string, string> = {}): Promise<SandboxDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'fundkit-treasury-'));
  const masterKey = randomBytes(32);
  const db = openDatabase(join(dir, 'fundkit.db'));
  const setup = await setupSandbox(SqliteSql.of(db), deriveKey(masterKey, 'stellar-keys'), 'http://localhost/sandbox/horizon', { unfundedTreasury: true });
  db.close();
  return {
    dir, treasury: setup.treasury.publicKey(),
    env: {
      FUNDKIT_STELLAR: 'sandbox', FUNDKIT_DB: join(dir, 'fundkit.db'), FUNDKIT_DATABASE_URL: '', FUNDKIT_DATA_DIR: dir,
      FUNDKIT_MASTER_KEY: masterKey.toString('hex'), FUNDKIT_DEPOSIT_POOL_SIZE: '2', FUNDKIT_TREASURY_CHANNELS: '2', ...extra,
    },
  };
}
