/**
 * Hosted checkout page loads are counted in the database: with two servers on one database (a
 * file, or one PostgreSQL database under FUNDKIT_TEST_ENGINE=postgres), a client spreading page
 * loads over the servers behind a load balancer gets no more than the limit in all.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rows } from '../helpers/raw-sql.js';
import { KEYS, startTestServer, type TestServer } from '../helpers/server.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const open: TestServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function twoServers(extraEnv: Record<string, string>): Promise<[TestServer, TestServer]> {
  const dir = mkdtempSync(join(tmpdir(), 'fundkit-page-limit-'));
  const env: Record<string, string> = { FUNDKIT_DB: join(dir, 'fundkit.db'), FUNDKIT_DATA_DIR: dir, FUNDKIT_MASTER_KEY: 'ab'.repeat(32), ...extraEnv };
  if (process.env.FUNDKIT_TEST_ENGINE === 'postgres') env.FUNDKIT_DATABASE_URL = await (await import('../helpers/postgres.js')).freshPostgresDatabase('page_limit');
  for (let i = 0; i < 2; i++) open.push(await startTestServer({ env }));
  return [open[0]!, open[1]!];
}

describe('hosted checkout page loads across servers', () => {
  it('loads on server A count on server B: past the limit both answer 429 with Retry-After', async () => {
    const [a, b] = await twoServers({ FUNDKIT_CHECKOUT_PAGE_LIMIT: '4' });
    const created = await a.request('POST', '/v1/funding-intents', { key: KEYS.alphaSecretTest, body: { amount: '25', asset: 'USDC' } });
    expect(created.status).toBe(201);
    const link = new URL(created.body.hosted_funding_url as string);
    const load = async (server: TestServer) => {
      const page = await fetch(`${server.url}${link.pathname}${link.search}`);
      await page.arrayBuffer();
      return page;
    };
    // 4 in all, 2 on each: each server alone would allow 4
    for (const server of [a, b, a, b]) expect((await load(server)).status).toBe(200);
    for (const server of [a, b]) {
      const refused = await load(server);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    // a refused client is refused by each server on its own until the minute ends: a flood writes nothing more
    const counted = async () => Number((await rows(a.server.sql, "SELECT points FROM rate_limits WHERE key LIKE 'checkout_page:%'"))[0]!.points);
    const before = await counted();
    for (let i = 0; i < 5; i++) for (const server of [a, b]) expect((await load(server)).status).toBe(429);
    expect(await counted()).toBe(before);
    // the widget's script is a static file: never counted
    expect((await fetch(`${b.url}/checkout/fundkit-checkout.js`)).status).not.toBe(429);
  });
});
