import { execSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDevAccount } from '../src/dev-account.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const DASHBOARD = join(import.meta.dirname, '..', '..', 'dashboard');

let t: TestServer;
beforeAll(async () => {
  // the server serves the built app, as it serves the checkout's IIFE: build it if a fresh clone has none
  if (!existsSync(join(DASHBOARD, 'dist', 'index.html'))) execSync('pnpm build', { cwd: DASHBOARD, stdio: 'inherit' });
  t = await startTestServer();
});
afterAll(() => t.close());

async function get(path: string) {
  const res = await fetch(t.url + path);
  return { status: res.status, type: res.headers.get('content-type') ?? '', cache: res.headers.get('cache-control'), text: await res.text() };
}

describe('the dashboard at /dashboard', () => {
  it('serves the page, then the script it names', async () => {
    const page = await get('/dashboard');
    expect(page.status).toBe(200);
    expect(page.type).toContain('text/html');
    expect(page.cache).toBe('no-store');
    const script = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(page.text)?.[1];
    expect(script).toBeDefined();
    const js = await get(script!);
    expect(js.status).toBe(200);
    expect(js.type).toContain('javascript');
    expect(js.text).toContain('/v1/auth/sign-in');
  });

  it('answers 404 for an unknown asset and never walks out of its folder', async () => {
    expect((await get('/dashboard/assets/nope.js')).status).toBe(404);
    expect((await get('/dashboard/assets/..%2F..%2Fpackage.json')).status).toBe(404);
  });
});

describe('the sandbox development account', () => {
  it('is created verified, signs in through the API, and is reused on the next start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fundkit-dev-account-'));
    const first = await ensureDevAccount(t.server.services.accounts, dir);
    const signIn = await t.request('POST', '/v1/auth/sign-in', { body: { email: first.email, password: first.password } });
    expect(signIn.status).toBe(200);
    expect(signIn.body.account.email_verified).toBe(true);
    const again = await ensureDevAccount(t.server.services.accounts, dir);
    expect(again.email).toBe(first.email);
    const wrong = await t.request('POST', '/v1/auth/sign-in', { body: { email: first.email, password: 'not-the-password' } });
    expect(wrong.body.error.code).toBe('INVALID_CREDENTIALS');
  });
});
