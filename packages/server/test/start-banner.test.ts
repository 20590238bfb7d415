/**
 * The banner is printed after the server listens, and reads the database to make it (the
 * development account, the sandbox application, a demo intent). A database that drops at that
 * moment once ended start-up: `fundkit-server: failed to start: Connection terminated
 * unexpectedly`, exit 1, a server gone right after /readyz had said 200 (seen in CI, three
 * processes on PostgreSQL with one cut off). Now the server runs on and the banner says why it
 * is short.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBanner } from '../src/banner.js';
import type { Sql } from '../src/db/sql.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fundkit-banner-'));
  // as `pnpm start` makes it: sandbox keys saved in the data directory, so the banner has work to do
  t = await startTestServer({ bootstrap: null, env: { FUNDKIT_DATA_DIR: dir, FUNDKIT_DB: join(dir, 'fundkit.db') } });
});
afterAll(() => t.close());

/** Every query fails as a dropped connection fails, until the returned function restores them. */
function dropDatabase(sql: Sql): () => void {
  const methods = ['get', 'all', 'run', 'column', 'arrays', 'transaction'] as const;
  const saved = methods.map((m) => [m, sql[m]] as const);
  for (const m of methods) (sql as unknown as Record<string, unknown>)[m] = async () => { throw new Error('Connection terminated unexpectedly'); };
  return () => { for (const [m, fn] of saved) (sql as unknown as Record<string, unknown>)[m] = fn; };
}

describe('the start banner', () => {
  it('a database error while the sandbox application is handed to the dashboard login (where CI saw a server exit): the banner prints', async () => {
    const applications = t.server.services.applications;
    const adopt = applications.adopt;
    applications.adopt = async () => { throw new Error('Connection terminated unexpectedly'); };
    let banner: string;
    try {
      banner = await startBanner(t.server, t.url);
    } finally {
      applications.adopt = adopt;
    }
    expect(banner).toContain('Demo checkout');
    expect(banner).toContain('Dashboard login');
    expect(t.logs.some((l) => String(l.msg).startsWith('could not give the sandbox application to the development account'))).toBe(true);
  });

  it('with every query failing while it is made: resolves with what it could make, never rejects (start-up would end)', async () => {
    const restore = dropDatabase(t.server.sql);
    try {
      await expect(startBanner(t.server, t.url)).resolves.toContain('Fundkit reference server');
    } finally {
      restore();
    }
  });

  it('with the database there: the full banner, its demo checkout and dashboard login', async () => {
    const banner = await startBanner(t.server, t.url);
    expect(banner).toContain('Demo checkout');
    expect(banner).toContain('Dashboard login');
  });
});
