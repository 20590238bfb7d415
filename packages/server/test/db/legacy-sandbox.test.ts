/**
 * A database the removed in-process sandbox kept its chain in (the sbx_ tables of migrations 020
 * and 025, with rows) is refused at start with what to do, instead of starting on a new chain
 * where its treasury and deposit accounts do not exist; empty sbx_ tables are dropped (036). The
 * old state is made as such a database had it: migrated up to 035, its tables holding rows.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { openDataStore } from '../../src/db/store.js';
import { createServer } from '../../src/index.js';
import { run, value } from '../helpers/raw-sql.js';

const silent = pino({ level: 'silent' });

/** A database as one the in-process sandbox used: 036 not applied, sbx_ledgers there, with `ledgers` rows. */
async function olderDatabase(ledgers: number): Promise<Record<string, string>> {
  const dir = mkdtempSync(join(tmpdir(), 'fundkit-legacy-'));
  const databaseUrl = process.env.FUNDKIT_TEST_ENGINE === 'postgres'
    ? await (await import('../helpers/postgres.js')).freshPostgresDatabase('legacy') : '';
  const env = { FUNDKIT_DB: join(dir, 'fundkit.db'), FUNDKIT_DATABASE_URL: databaseUrl, FUNDKIT_DATA_DIR: dir, FUNDKIT_MASTER_KEY: 'ab'.repeat(32) };
  const store = await openDataStore(loadConfig(env), silent);
  try {
    await run(store.sql, 'CREATE TABLE sbx_ledgers (seq INTEGER PRIMARY KEY, hash TEXT NOT NULL)');
    for (let seq = 1; seq <= ledgers; seq++) await run(store.sql, 'INSERT INTO sbx_ledgers (seq, hash) VALUES (?, ?)', seq, `hash-${seq}`);
    await run(store.sql, 'DELETE FROM schema_migrations WHERE version = 36');
  } finally {
    await store.close();
  }
  return env;
}

describe('a database of the in-process sandbox', () => {
  it('holding its chain: the start is refused with what happened and what to do, and the chain is left as it was', async () => {
    const env = await olderDatabase(2);
    const start = createServer({ env, logger: silent });
    await expect(start).rejects.toThrow(ConfigError);
    await expect(start).rejects.toThrow(/holds the chain of the in-process sandbox.*no longer runs.*treasury and deposit accounts do not exist.*test money: start on a fresh database/s);
    await expect(start).rejects.toThrow(env.FUNDKIT_DATABASE_URL ? /point FUNDKIT_DATABASE_URL at a new, empty database/ : /delete .*fundkit\.db with its -wal and -shm files, or point FUNDKIT_DB at a new file/);
    // nothing dropped: the operator chooses, and the next start says the same
    const store = await openDataStore(loadConfig(env), silent).catch((error: unknown) => error);
    expect(store).toBeInstanceOf(ConfigError);
    await expect(createServer({ env, logger: silent })).rejects.toThrow(/holds the chain of the in-process sandbox/);
  }, 60_000);

  it('with empty tables: 036 drops them and the server starts on its sandbox thread', async () => {
    const env = await olderDatabase(0);
    const server = await createServer({ env, logger: silent });
    try {
      expect(server.services.pipeline.pipeline.stellar!.sandbox!.url).toMatch(/^http:/);
      await expect(value(server.sql, 'SELECT COUNT(*) FROM sbx_ledgers')).rejects.toThrow(/sbx_ledgers/);
      expect(Number(await value(server.sql, 'SELECT COUNT(*) FROM schema_migrations WHERE version = 36'))).toBe(1);
    } finally {
      await server.close();
    }
  }, 60_000);
});
