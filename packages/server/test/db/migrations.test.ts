/**
 * `fundkit migrate` and the schema check at start, on both engines: a database is brought to this
 * version's schema once, and a database a newer version migrated is refused before anything runs.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { runCli, type CliIo } from '../../src/cli/index.js';
import { ConfigError } from '../../src/config.js';
import { MIGRATIONS } from '../../src/db/migrations/index.js';
import { createServer } from '../../src/index.js';
import { freshPostgresDatabase, postgresUrl } from '../helpers/postgres.js';

const NAMES = MIGRATIONS.map((m) => m.name);
const NEWEST = MIGRATIONS.at(-1)!;
const FUTURE = '999_from_the_future';

async function cli(argv: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const cwd = mkdtempSync(join(tmpdir(), 'fundkit-migrate-'));
  const io: CliIo = { stdout: (s) => void out.push(s), stderr: (s) => void err.push(s), env, cwd };
  const code = await runCli(argv, io);
  return { code, stdout: out.join(''), stderr: err.join(''), cwd };
}

const tempDb = () => join(mkdtempSync(join(tmpdir(), 'fundkit-migrate-db-')), 'fundkit.db');

/** One engine's side of the tests: a new empty database, and SQL run on it. */
interface Engine {
  name: string;
  fresh(): Promise<string>;
  /** rows of `sql` on the database at `target` */
  query(target: string, sql: string): Promise<Record<string, unknown>[]>;
  /** how `fundkit migrate` names the database */
  shown(target: string): string;
}

const sqlite: Engine = {
  name: 'SQLite',
  fresh: async () => tempDb(),
  async query(file, sql) {
    const db = new Database(file);
    try {
      return /^\s*select/i.test(sql) ? db.prepare(sql).all() as Record<string, unknown>[] : (db.exec(sql), []);
    } finally {
      db.close();
    }
  },
  shown: (file) => file,
};

const postgres: Engine = {
  name: 'PostgreSQL',
  fresh: () => freshPostgresDatabase('migrate'),
  async query(url, sql) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(sql)).rows;
    } finally {
      await client.end();
    }
  },
  shown: (url) => url,
};

const appliedNames = async (engine: Engine, target: string) =>
  (await engine.query(target, 'SELECT name FROM schema_migrations ORDER BY version')).map((r) => r.name);

for (const engine of [sqlite, postgres]) {
  describe.skipIf(engine === postgres && !postgresUrl)(`fundkit migrate on ${engine.name}`, () => {
    it('applies every migration to a new database once, then finds nothing to do', async () => {
      const target = await engine.fresh();
      const first = await cli(['migrate', '--db', target]);
      expect(first.code, first.stderr).toBe(0);
      for (const name of NAMES) expect(first.stdout).toContain(`applied ${name}\n`);
      expect(first.stdout).toContain(`${engine.shown(target)}: now at migration ${NEWEST.version} (${NEWEST.name})`);
      expect(await appliedNames(engine, target)).toEqual(NAMES);

      const again = await cli(['migrate', '--db', target, '--json']);
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout)).toEqual({ database: engine.shown(target), applied: [], version: NEWEST.version, migration: NEWEST.name });
    });

    it('is refused (exit 1) on a database a newer version migrated, naming the unknown migration and changing nothing', async () => {
      const target = await engine.fresh();
      expect((await cli(['migrate', '--db', target])).code).toBe(0);
      await engine.query(target, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, '${FUTURE}', '2030-01-01T00:00:00.000Z')`);
      const run = await cli(['migrate', '--db', target]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(FUTURE);
      expect(run.stderr).toContain(`migrations up to ${NEWEST.name}`);
      expect(await appliedNames(engine, target)).toEqual([...NAMES, FUTURE]);
    });
  });
}

describe('fundkit migrate: where the database comes from', () => {
  it('takes the database from FUNDKIT_DB, else the server default under FUNDKIT_DATA_DIR, relative to where it runs', async () => {
    const fromEnv = tempDb();
    expect((await cli(['migrate'], { FUNDKIT_DB: fromEnv })).code).toBe(0);
    expect(await appliedNames(sqlite, fromEnv)).toEqual(NAMES);

    const byDefault = await cli(['migrate'], { FUNDKIT_DATA_DIR: 'data' });
    expect(byDefault.code, byDefault.stderr).toBe(0);
    expect(await appliedNames(sqlite, join(byDefault.cwd, 'data', 'fundkit.db'))).toEqual(NAMES);
  });

  it.skipIf(!postgresUrl)('takes FUNDKIT_DATABASE_URL before FUNDKIT_DB, and never prints its password', async () => {
    const target = new URL(await freshPostgresDatabase('env'));
    target.password = 'not-needed-on-trust';
    const unused = tempDb();
    const run = await cli(['migrate', '--json'], { FUNDKIT_DATABASE_URL: target.toString(), FUNDKIT_DB: unused });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).applied).toEqual(NAMES);
    expect(run.stdout).not.toContain('not-needed-on-trust');
    expect(JSON.parse(run.stdout).database).toContain(':***@');
    expect(await appliedNames(postgres, target.toString())).toEqual(NAMES);
  });

  it('says which PostgreSQL it cannot reach (exit 1), and refuses a URL that is not PostgreSQL before connecting', async () => {
    const unreachable = await cli(['migrate', '--db', 'postgres://fundkit:secret@127.0.0.1:1/fundkit']);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(/cannot connect to postgres:\/\/fundkit:\*\*\*@127\.0\.0\.1:1\/fundkit: .*ECONNREFUSED/);
    expect(unreachable.stderr).not.toContain('secret');

    const notPostgres = await cli(['migrate'], { FUNDKIT_DATABASE_URL: 'mysql://root@127.0.0.1/fundkit' });
    expect(notPostgres.code).toBe(1);
    expect(notPostgres.stderr).toContain('FUNDKIT_DATABASE_URL must be a PostgreSQL URL');
  });

  it('refuses an unknown option with a usage error', async () => {
    const run = await cli(['migrate', '--database', tempDb()]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown option --database for "migrate"');
  });
});

it.skipIf(!postgresUrl)('PostgreSQL: migrators started together take turns, and each migration applies once', async () => {
  const target = await freshPostgresDatabase('race');
  const runs = await Promise.all([1, 2, 3, 4].map(() => cli(['migrate', '--db', target, '--json'])));
  for (const run of runs) expect(run.code, run.stderr).toBe(0);
  const applied = runs.flatMap((run) => JSON.parse(run.stdout).applied as string[]);
  expect(applied.sort()).toEqual([...NAMES].sort());
  expect(await appliedNames(postgres, target)).toEqual(NAMES);
});

describe('the server at start', () => {
  const env = { FUNDKIT_MASTER_KEY: 'ab'.repeat(32), LOG_LEVEL: 'silent' };
  const startError = async (extra: Record<string, string>) => {
    try {
      await createServer({ env: { ...env, ...extra }, bootstrap: null });
    } catch (error) {
      return error;
    }
    throw new Error('the server started');
  };

  it('refuses a database a newer version migrated, with a configuration error naming it', async () => {
    const file = tempDb();
    expect((await cli(['migrate', '--db', file])).code).toBe(0);
    await sqlite.query(file, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, '${FUTURE}', '2030-01-01T00:00:00.000Z')`);
    const thrown = await startError({ FUNDKIT_DB: file });
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as Error).message).toContain(FUTURE);
  });

  it.skipIf(!postgresUrl)('runs on FUNDKIT_DATABASE_URL, migrated at start, and leaves FUNDKIT_DB alone', async () => {
    const target = await freshPostgresDatabase('start');
    const file = tempDb();
    const server = await createServer({ env: { ...env, FUNDKIT_DATABASE_URL: target, FUNDKIT_DB: file }, bootstrap: null });
    try {
      expect(server.sql.dialect).toBe('postgres');
      expect(await appliedNames(postgres, target)).toEqual(NAMES);
      expect(existsSync(file)).toBe(false);
      expect(() => server.db).toThrow(/PostgreSQL/);
    } finally {
      await server.close();
    }
  });
});
