/**
 * Every prepared query of the data layer, compiled for PostgreSQL, is accepted by a real
 * PostgreSQL 15 with the migrated schema: it parses, its tables and columns exist, and its types
 * resolve (PREPARE plans it without running it). SQLite runs them in every other test. (The
 * sandbox's own queries no longer run on the server's database: it keeps its chain in its own
 * SQLite file, and migration 036 dropped its tables here.)
 */
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import '../../src/index.js';
import { migratePostgres } from '../../src/db/migrate.js';
import { PREPARED_QUERIES } from '../../src/db/sql.js';
import { freshPostgresDatabase, postgresUrl } from '../helpers/postgres.js';

describe.skipIf(!postgresUrl)('the data layer on PostgreSQL', () => {
  let url: string;
  beforeAll(async () => {
    url = await freshPostgresDatabase('queries');
    await migratePostgres(url);
  });

  it('has every prepared query accepted by PostgreSQL', async () => {
    expect(PREPARED_QUERIES.length).toBeGreaterThan(0);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const rejected: string[] = [];
    try {
      for (const [i, query] of PREPARED_QUERIES.entries()) {
        let sql = '(not built)';
        try {
          sql = query.compiled('postgres').sql;
          await client.query(`PREPARE q${i} AS ${sql}`);
        } catch (error) {
          // a query that does not even build is located by its stack
          rejected.push(`${(error as Error).message}\n  ${sql === '(not built)' ? (error as Error).stack : sql}`);
        }
      }
    } finally {
      await client.end();
    }
    expect(rejected).toEqual([]);
  });
});
