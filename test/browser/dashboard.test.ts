import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTLEMENT_ADDRESS, startTestServer, type TestServer } from '../../packages/server/test/helpers/server.js';
import { ARTIFACTS, launchChromium } from './harness.js';

const DASHBOARD = join(import.meta.dirname, '..', '..', 'packages', 'dashboard');
// the README's screenshots are refreshed only on request, so a test run leaves the tree clean
const SHOTS = process.env.DASHBOARD_SCREENSHOTS ? join(DASHBOARD, 'docs') : ARTIFACTS;
const PASSWORD = 'correct-horse-battery';

let api: TestServer;
let browser: Browser;
beforeAll(async () => {
  if (!existsSync(join(DASHBOARD, 'dist', 'index.html'))) execSync('pnpm build', { cwd: DASHBOARD, stdio: 'inherit' });
  api = await startTestServer();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await api?.close();
});

/** Signs up and verifies through the API, with the link the server prints (it has no mailer). */
async function account(email: string): Promise<void> {
  expect((await api.request('POST', '/v1/auth/sign-up', { body: { email, password: PASSWORD } })).status).toBe(201);
  const line = api.logs.find((l) => l.email === email && typeof l.verify_url === 'string');
  const token = new URL(String(line!.verify_url)).searchParams.get('token');
  expect((await api.request('POST', '/v1/auth/verify-email', { body: { token } })).status).toBe(200);
}

async function signIn(email: string, width: number): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width, height: 900 } })).newPage();
  await page.goto(`${api.url}/dashboard`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Applications', level: 1 }).waitFor();
  return page;
}

describe('the dashboard in Chromium', () => {
  it('signs in, creates an application and a key that works on the API, and revokes it', async () => {
    await account('owner@example.org');
    const page = await signIn('owner@example.org', 1280);
    await page.getByText('No applications yet').waitFor();
    await page.getByLabel('Name').fill('Alpha Shop');
    await page.getByRole('button', { name: 'Create application' }).click();
    await page.getByRole('heading', { name: 'Keys of Alpha Shop' }).waitFor();
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('new-key').textContent())!;
    expect(secret).toMatch(/^sk_test_/);
    // the key the page showed is a real key of that application
    const me = await api.request('GET', '/v1/funding-intents', { key: secret });
    expect(me.status).toBe(200);
    await page.getByRole('button', { name: /^Revoke / }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'applications-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 360, height: 900 });
    await page.screenshot({ path: join(SHOTS, 'applications-360.png'), fullPage: true });
    await page.getByRole('button', { name: /^Revoke / }).click();
    await page.getByText(/^revoked /).waitFor();
    expect((await api.request('GET', '/v1/funding-intents', { key: secret })).status).toBe(401);

    // rename; a bad settlement address gets the API's own error, a good one is saved
    await page.getByLabel('Application name').fill('Alpha Store');
    await page.getByLabel('Default settlement address').fill('not-an-address');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('form[aria-labelledby="edit-app-heading"] [role=alert]').textContent()).toMatch(/\S/);
    await page.getByLabel('Default settlement address').fill(SETTLEMENT_ADDRESS);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Keys of Alpha Store' }).waitFor();
    const token = await page.evaluate(() => sessionStorage.getItem('fundkit.dashboard.session'));
    const apps = await api.request('GET', '/v1/applications', { key: token! });
    expect(apps.body.data[0]).toMatchObject({ name: 'Alpha Store', settlement_address: SETTLEMENT_ADDRESS });

    // sign out ends the session on the server too
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect((await api.request('GET', '/v1/applications', { key: token! })).status).toBe(401);
  });

  it('shows the API message on a wrong password, and a second account sees none of the first one\'s applications', async () => {
    const page = await (await browser.newContext({ viewport: { width: 360, height: 740 } })).newPage();
    await page.goto(`${api.url}/dashboard`);
    await page.getByLabel('Email').fill('owner@example.org');
    await page.getByLabel('Password').fill('wrong-password-here');
    await page.getByRole('button', { name: 'Sign in' }).click();
    // the page shows the API's own answer
    const refused = await api.request('POST', '/v1/auth/sign-in', { body: { email: 'owner@example.org', password: 'wrong-password-here' } });
    expect(refused.body.error.code).toBe('INVALID_CREDENTIALS');
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(refused.body.error.message);
    await page.screenshot({ path: join(SHOTS, 'sign-in-360.png') });
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.screenshot({ path: join(SHOTS, 'sign-in-1280.png') });

    await account('other@example.org');
    const other = await signIn('other@example.org', 1280);
    await other.getByText('No applications yet').waitFor();
    expect(await other.getByText('Alpha Shop').count()).toBe(0);
    // and through the API: the other account's session lists nothing of the first
    const session = await api.request('POST', '/v1/auth/sign-in', { body: { email: 'other@example.org', password: PASSWORD } });
    const list = await api.request('GET', '/v1/applications', { key: session.body.token });
    expect(list.body.data).toEqual([]);
  });
});
