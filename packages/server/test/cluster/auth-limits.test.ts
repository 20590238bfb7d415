/**
 * Sign-in failures are counted in the database: with two servers on one database (a file, or one
 * PostgreSQL database under FUNDKIT_TEST_ENGINE=postgres), failures on server A count on server B,
 * so a guesser gains nothing by spreading attempts over the servers behind a load balancer.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

// each sign-in hashes a password (scrypt N=2^17): seconds each on a loaded machine
vi.setConfig({ testTimeout: 240_000, hookTimeout: 120_000 });

const open: TestServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function twoServers(extraEnv: Record<string, string>): Promise<[TestServer, TestServer]> {
  const dir = mkdtempSync(join(tmpdir(), 'fundkit-auth-cluster-'));
  // both on the test process's sandbox thread (test/helpers/server.ts): servers of one database share one sandbox
  const env: Record<string, string> = { FUNDKIT_DB: join(dir, 'fundkit.db'), FUNDKIT_DATA_DIR: dir, FUNDKIT_MASTER_KEY: 'ab'.repeat(32), FUNDKIT_DEPOSIT_POOL_SIZE: '0', ...extraEnv };
  if (process.env.FUNDKIT_TEST_ENGINE === 'postgres') env.FUNDKIT_DATABASE_URL = await (await import('../helpers/postgres.js')).freshPostgresDatabase('auth_cluster');
  for (let i = 0; i < 2; i++) open.push(await startTestServer({ env }));
  return [open[0]!, open[1]!];
}

describe('sign-in failures across servers', () => {
  it('failures on server A count on server B: the account is refused on both', async () => {
    const [a, b] = await twoServers({ FUNDKIT_SIGNIN_ACCOUNT_FAILURES: '2', FUNDKIT_SIGNIN_CLIENT_FAILURES: '1000' });
    const signIn = (server: TestServer, password: string) => server.request('POST', '/v1/auth/sign-in', { body: { email: 'target@example.org', password } });
    // one server alone would allow 2 free failures; spread over two, each server sees fewer
    expect((await signIn(a, 'guess-1')).status).toBe(401);
    expect((await signIn(b, 'guess-2')).status).toBe(401);
    expect((await signIn(a, 'guess-3')).status).toBe(401);
    for (const server of [b, a]) {
      const refused = await signIn(server, 'guess-4');
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('RATE_LIMITED');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
  });
});
