/**
 * The asynchronous executors: a transaction's writes are invisible to others until it commits
 * and gone when it throws; a nested transaction is a savepoint that rolls back alone; BigInt
 * round-trips; on SQLite, a query of another async context waits for the open transaction.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratePostgres } from '../../src/db/migrate.js';
import { PostgresSql } from '../../src/db/postgres-sql.js';
import { prepared, SqliteSql, type Sql } from '../../src/db/sql.js';
import { freshPostgresDatabase, postgresUrl } from '../helpers/postgres.js';

const INSERT = prepared<never, { v: string; n: bigint }>((k, p) => k.insertInto('t').values({ v: p('v'), n: p('n') }));
const VALUES = prepared<{ v: string }>((k) => k.selectFrom('t').select('v').orderBy('v'));
const BY_V = prepared<{ v: string; n: bigint }, { v: string }>((k, p) => k.selectFrom('t').selectAll().where('v', '=', p('v')), { bigint: true });
const COUNT = prepared<{ c: number }>((k) => k.selectFrom('t').select((eb) => eb.fn.countAll<number>().as('c')));
const IN_LIST = prepared<{ v: string }, { vs: string[] }>((k, p, d) => k.selectFrom('t').select('v').where(d.oneOf('v', p('vs'))).orderBy('v'));

const tick = () => new Promise((resolve) => setImmediate(resolve));

function behaves(name: string, open: () => Promise<{ sql: Sql; other: Sql; close: () => Promise<void> }>) {
  describe(name, () => {
    let sql: Sql;
    let other: Sql;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ sql, other, close } = await open());
    });
    afterAll(() => close());

    const values = async (on = sql) => (await on.column(VALUES)) as string[];

    it('commits a transaction, and rolls it back when it throws', async () => {
      await sql.transaction(async () => {
        await sql.run(INSERT, { v: 'a', n: 1n });
      });
      await expect(sql.transaction(async () => {
        await sql.run(INSERT, { v: 'b', n: 2n });
        expect(await values()).toEqual(['a', 'b']);
        throw new Error('refused');
      })).rejects.toThrow('refused');
      expect(await values()).toEqual(['a']);
    });

    it('keeps a transaction’s writes from others until it commits', async () => {
      let inside!: () => void;
      const held = new Promise<void>((resolve) => { inside = resolve; });
      let release!: () => void;
      const gate = new Promise<void>((resolve) => { release = resolve; });
      const tx = sql.transaction(async () => {
        await sql.run(INSERT, { v: 'c', n: 3n });
        inside();
        await gate;
      });
      await held;
      // another context: on PostgreSQL it reads the committed state; on SQLite it waits
      const seen = other.column(VALUES);
      if (sql.dialect === 'postgres') expect(await seen).toEqual(['a']);
      else await tick();
      release();
      await tx;
      if (sql.dialect === 'sqlite') expect(await seen).toEqual(['a', 'c']);
      expect(await values()).toEqual(['a', 'c']);
    });

    it('rolls a nested transaction back alone', async () => {
      await sql.transaction(async () => {
        await sql.run(INSERT, { v: 'd', n: 4n });
        await expect(sql.transaction(async () => {
          await sql.run(INSERT, { v: 'e', n: 5n });
          throw new Error('inner');
        })).rejects.toThrow('inner');
        await sql.transaction(async () => sql.run(INSERT, { v: 'f', n: 6n }));
      });
      expect(await values()).toEqual(['a', 'c', 'd', 'f']);
    });

    it('round-trips a BigInt past 2^53, and numbers without `bigint`', async () => {
      await sql.run(INSERT, { v: 'big', n: 9007199254740993n });
      expect((await sql.get(BY_V, { v: 'big' }))!.n).toBe(9007199254740993n);
      expect(typeof (await sql.get(COUNT))!.c).toBe('number');
      expect(await sql.all(IN_LIST, { vs: ['a', 'big', 'zz'] })).toEqual([{ v: 'a' }, { v: 'big' }]);
    });

    it('reads one snapshot inside `snapshot`, whatever commits meanwhile', async () => {
      let go!: () => void;
      // chained out here, so the write runs in another async context than the snapshot
      const write = new Promise<void>((resolve) => { go = resolve; }).then(() => other.transaction(() => other.run(INSERT, { v: 'snap', n: 8n })));
      const inside = await sql.snapshot(async () => {
        const before = await values();
        // PostgreSQL commits the write now; SQLite makes it wait for the snapshot
        go();
        if (sql.dialect === 'postgres') await write;
        else await tick();
        return [before, await values()];
      });
      expect(inside[1]).toEqual(inside[0]);
      await write;
      expect(await values()).toContain('snap');
      await sql.run(prepared<never>((k) => k.deleteFrom('t').where('v', '=', 'snap')));
    });

    it('runs afterCommit hooks only after the commit, and drops them on rollback', async () => {
      const seen: string[][] = [];
      // the hook's own read is awaited below: on PostgreSQL it is a round trip of its own
      const reads: Promise<unknown>[] = [];
      await sql.transaction(async () => {
        await sql.run(INSERT, { v: 'g', n: 7n });
        sql.afterCommit(() => { reads.push(other.column(VALUES).then((v) => seen.push(v as string[]))); });
      });
      await expect(sql.transaction(async () => {
        sql.afterCommit(() => seen.push(['never']));
        throw new Error('no');
      })).rejects.toThrow('no');
      await tick();
      expect(reads).toHaveLength(1);
      await Promise.all(reads);
      expect(seen).toEqual([['a', 'big', 'c', 'd', 'f', 'g']]);
    });
  });
}

behaves('SqliteSql', async () => {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (v TEXT PRIMARY KEY, n INTEGER NOT NULL)');
  const sql = SqliteSql.of(db);
  // one connection: "another context" is the same executor, used from outside the transaction
  return { sql, other: sql, close: async () => { db.close(); } };
});

describe('SqliteSql, one connection', () => {
  it('makes a query of another async context wait for the open transaction (first come, first served)', async () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (v TEXT PRIMARY KEY, n INTEGER NOT NULL)');
    const sql = SqliteSql.of(db);
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    const tx = sql.transaction(async () => {
      await sql.run(INSERT, { v: 'x', n: 1n });
      await gate;
      order.push('commit');
    });
    const read = sql.column(VALUES);
    const second = sql.transaction(async () => { order.push('second'); await sql.run(INSERT, { v: 'y', n: 2n }); });
    await tick();
    expect(order).toEqual([]);
    release();
    await Promise.all([tx, second]);
    // the read ran after the first commit and before the second transaction
    expect(await read).toEqual(['x']);
    expect(order).toEqual(['commit', 'second']);
    expect(await sql.column(VALUES)).toEqual(['x', 'y']);
    expect(db.inTransaction).toBe(false);
  });

  it('lets the next query go when COMMIT fails, or even the ROLLBACK after it', async () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    db.exec('CREATE TABLE p (id INTEGER PRIMARY KEY); CREATE TABLE t (v TEXT PRIMARY KEY, n INTEGER NOT NULL REFERENCES p (id) DEFERRABLE INITIALLY DEFERRED)');
    const sql = SqliteSql.of(db);
    const orphan = () => sql.transaction(() => sql.run(INSERT, { v: 'orphan', n: 1n }));
    // a deferred foreign key fails at COMMIT, which leaves the transaction open
    await expect(orphan()).rejects.toThrow(/FOREIGN KEY/);
    expect(await sql.column(VALUES)).toEqual([]);

    const exec = db.exec.bind(db);
    db.exec = (text: string) => {
      if (text === 'ROLLBACK') throw new Error('rollback failed');
      return exec(text);
    };
    await expect(orphan()).rejects.toThrow(/FOREIGN KEY|rollback failed/);
    db.exec = exec;
    // not frozen: the next query of another context runs
    expect(await Promise.race([sql.column(VALUES), new Promise((resolve) => setTimeout(() => resolve('frozen'), 500))])).not.toBe('frozen');
    // and the next transaction starts afresh, without the failed one's row
    await sql.transaction(async () => {
      db.exec('INSERT INTO p (id) VALUES (2)');
      await sql.run(INSERT, { v: 'kept', n: 2n });
    });
    expect(await sql.column(VALUES)).toEqual(['kept']);
    expect(db.inTransaction).toBe(false);
  });
});

const pgUrl = postgresUrl;
describe.skipIf(!pgUrl)('PostgresSql', () => {
  let url: string;
  beforeAll(async () => {
    url = await freshPostgresDatabase('executors');
    await migratePostgres(url);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('CREATE TABLE t (v TEXT PRIMARY KEY, n BIGINT NOT NULL)');
    await client.end();
  });
  behaves('on a pool', async () => {
    const sql = new PostgresSql(new pg.Pool({ connectionString: url, max: 4 }));
    const other = new PostgresSql(new pg.Pool({ connectionString: url, max: 2 }));
    return { sql, other, close: async () => { await sql.close(); await other.close(); } };
  });
});
