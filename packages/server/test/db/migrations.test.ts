/**
 * `fundkit migrate` and the schema check at start: a database is brought to this version's
 * schema once, and a database a newer version migrated is refused by both, before anything runs.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runCli, type CliIo } from '../../src/cli/index.js';
import { ConfigError } from '../../src/config.js';
import { createServer } from '../../src/index.js';

const MIGRATIONS = readdirSync(join(import.meta.dirname, '..', '..', 'src', 'db', 'migrations')).filter((f) => /^\d+_.+\.sql$/.test(f)).sort();
const NEWEST = MIGRATIONS.at(-1)!;

async function cli(argv: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const cwd = mkdtempSync(join(tmpdir(), 'fundkit-migrate-'));
  const io: CliIo = { stdout: (s) => void out.push(s), stderr: (s) => void err.push(s), env, cwd };
  const code = await runCli(argv, io);
  return { code, stdout: out.join(''), stderr: err.join(''), cwd };
}

const tempDb = () => join(mkdtempSync(join(tmpdir(), 'fundkit-migrate-db-')), 'fundkit.db');
const appliedVersions = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT name FROM schema_migrations ORDER BY version').pluck().all();
  } finally {
    db.close();
  }
};

describe('fundkit migrate', () => {
  it('applies every migration to a new database once, then finds nothing to do', async () => {
    const file = tempDb();
    const first = await cli(['migrate', '--db', file]);
    expect(first.code, first.stderr).toBe(0);
    for (const name of MIGRATIONS) expect(first.stdout).toContain(`applied ${name}\n`);
    expect(first.stdout).toContain(`${file}: now at migration ${Number(NEWEST.split('_')[0])} (${NEWEST})`);
    expect(appliedVersions(file)).toEqual(MIGRATIONS);

    const again = await cli(['migrate', '--db', file, '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ database: file, applied: [], version: Number(NEWEST.split('_')[0]), migration: NEWEST });
  });

  it('takes the database from FUNDKIT_DB, else the server default under FUNDKIT_DATA_DIR, relative to where it runs', async () => {
    const fromEnv = tempDb();
    expect((await cli(['migrate'], { FUNDKIT_DB: fromEnv })).code).toBe(0);
    expect(appliedVersions(fromEnv)).toEqual(MIGRATIONS);

    const byDefault = await cli(['migrate'], { FUNDKIT_DATA_DIR: 'data' });
    expect(byDefault.code, byDefault.stderr).toBe(0);
    expect(appliedVersions(join(byDefault.cwd, 'data', 'fundkit.db'))).toEqual(MIGRATIONS);
  });

  it('refuses an unknown option with a usage error', async () => {
    const run = await cli(['migrate', '--database', tempDb()]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown option --database for "migrate"');
  });
});

describe('a database a newer version migrated', () => {
  /** A migrated database that also has a migration from the future. */
  async function fromTheFuture(): Promise<string> {
    const file = tempDb();
    expect((await cli(['migrate', '--db', file])).code).toBe(0);
    const db = new Database(file);
    db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, '999_from_the_future.sql', '2030-01-01T00:00:00.000Z')").run();
    db.close();
    return file;
  }

  it('is refused by fundkit migrate (exit 1), which names the unknown migration and changes nothing', async () => {
    const file = await fromTheFuture();
    const run = await cli(['migrate', '--db', file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('999_from_the_future.sql');
    expect(run.stderr).toContain(`migrations up to ${NEWEST}`);
    expect(appliedVersions(file)).toEqual([...MIGRATIONS, '999_from_the_future.sql']);
  });

  it('is refused by the server at start, with a configuration error naming it', async () => {
    const file = await fromTheFuture();
    let thrown: unknown;
    try {
      createServer({ env: { FUNDKIT_DB: file, FUNDKIT_MASTER_KEY: 'ab'.repeat(32), LOG_LEVEL: 'silent' }, bootstrap: null });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as Error).message).toContain('999_from_the_future.sql');
  });
});
