/**
 * The dashboard over one application (issue 28), in Chromium against a real server on the sandbox
 * ledger: what a person sees after an intent is made with the SDK, paid with the test helper,
 * refunded from the page; a failing webhook and its resend; the pages at 360 px.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Fundkit } from '../../packages/sdk/src/index.js';
import { SETTLEMENT_ADDRESS, startTestServer, type TestServer } from '../../packages/server/test/helpers/server.js';
import { ARTIFACTS, launchChromium } from './harness.js';

const DASHBOARD = join(import.meta.dirname, '..', '..', 'packages', 'dashboard');
const PASSWORD = 'correct-horse-battery';
// the README's screenshots are refreshed only on request, so a test run leaves the tree clean
const SHOTS = process.env.DASHBOARD_SCREENSHOTS ? join(DASHBOARD, 'docs') : ARTIFACTS;

let api: TestServer;
let browser: Browser;
/** a webhook receiver whose answer the test flips */
let receiver: Server;
let receiverStatus = 500;
let receiverUrl: string;

beforeAll(async () => {
  if (!existsSync(join(DASHBOARD, 'dist', 'index.html'))) execSync('pnpm build', { cwd: DASHBOARD, stdio: 'inherit' });
  mkdirSync(ARTIFACTS, { recursive: true });
  api = await startTestServer();
  browser = await launchChromium();
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(receiverStatus).end(receiverStatus === 200 ? 'ok' : 'down'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});

afterAll(async () => {
  await browser?.close();
  await api?.close();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});

async function signedUpAndIn(email: string, width: number): Promise<Page> {
  expect((await api.request('POST', '/v1/auth/sign-up', { body: { email, password: PASSWORD } })).status).toBe(201);
  const line = api.logs.find((l) => l.email === email && typeof l.verify_url === 'string');
  const token = new URL(String(line!.verify_url)).searchParams.get('token');
  expect((await api.request('POST', '/v1/auth/verify-email', { body: { token } })).status).toBe(200);
  const page = await (await browser.newContext({ viewport: { width, height: 900 }, locale: 'en-US' })).newPage();
  await page.goto(`${api.url}/dashboard`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Applications', level: 1 }).waitFor();
  return page;
}

/** Creates an application and a test secret key through the pages; returns the key shown once. */
async function applicationWithKey(page: Page, name: string): Promise<string> {
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Settlement address', { exact: true }).fill(SETTLEMENT_ADDRESS);
  await page.getByRole('button', { name: 'Create application' }).click();
  await page.getByRole('heading', { name: `Keys of ${name}` }).waitFor();
  await page.getByRole('button', { name: 'Create key' }).click();
  return (await page.getByTestId('new-key').textContent())!;
}

/** A real, solid-colour square PNG (the server reads its size; Chromium draws it). */
function png(size: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const byte of buf) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(size * 3, 0x2b)]);
  const pixels = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]);
}

/** No sideways scrolling: the page fits the viewport's width. */
async function fitsWidth(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

describe('the dashboard over one application', () => {
  it('an SDK intent shows in the list; the test helper pays it to CREDITED with a timeline; a refund from the page completes; the request logs show the calls', async () => {
    const page = await signedUpAndIn('merchant@example.org', 1280);
    const key = await applicationWithKey(page, 'Corner Shop');
    expect(key).toMatch(/^sk_test_/);
    const fk = new Fundkit({ apiKey: key, baseUrl: api.url, maxRetries: 0 });
    const intent = await fk.fundingIntents.create({ amount: '25.00', asset: 'USDC', reference: 'order-1042' });

    await page.getByRole('link', { name: 'Intents' }).click();
    await page.getByRole('heading', { name: 'Funding intents', level: 1 }).waitFor();
    await expect.poll(() => page.getByText('Test mode: sandbox data, no real money.').isVisible()).toBe(true);
    const row = page.locator('li', { hasText: 'order-1042' });
    await row.waitFor();
    expect(await row.textContent()).toContain('25.00 USDC');
    // the reference filter goes to the API
    await page.getByLabel('Reference').fill('no-such-order');
    await page.getByLabel('Reference').press('Enter');
    await page.getByText('No funding intents match these filters.').waitFor();
    await page.getByLabel('Reference').fill('order-1042');
    await page.getByLabel('Reference').press('Enter');
    await row.getByRole('link', { name: '25.00 USDC' }).click();

    await page.getByRole('heading', { name: `Funding intent ${intent.id}` }).waitFor();
    await page.getByRole('button', { name: 'Pay 25.00 USDC' }).click();
    const summary = page.getByRole('region', { name: 'Summary' });
    await expect.poll(() => summary.textContent(), { timeout: 30_000 }).toContain('CREDITED');
    const timeline = page.getByRole('region', { name: 'Timeline' });
    await expect.poll(() => timeline.getByRole('listitem').count(), { timeout: 15_000 }).toBeGreaterThan(2);
    await expect.poll(() => timeline.textContent(), { timeout: 15_000 }).toContain('payment.completed');
    const explorer = page.getByRole('region', { name: 'Payments' }).getByRole('link', { name: 'View on explorer' });
    const txUrl = (await explorer.getAttribute('href'))!;
    expect(txUrl).toMatch(new RegExp(`^${api.url}/sandbox/horizon/transactions/[0-9a-f]{64}$`));
    expect((await fetch(txUrl)).status).toBe(200);
    await page.screenshot({ path: join(SHOTS, 'intent-1280.png'), fullPage: true });

    // the API's refusal is shown as it is, then a MANUAL refund (from the balance) goes through
    const payments = page.getByRole('region', { name: 'Payments' });
    // a credited payment has nothing refundable but from the balance: only reason MANUAL may ask
    await expect.poll(() => payments.getByRole('button', { name: 'Refund payment' }).isDisabled(), { timeout: 15_000 }).toBe(true);
    await payments.getByText('Nothing left to refund for this reason; reason MANUAL refunds from your balance.').waitFor();
    await payments.getByLabel('Refund reason').selectOption('MANUAL');
    await payments.getByLabel('Refund to (optional, default the payer)').fill('not-an-address');
    await payments.getByRole('button', { name: 'Refund payment' }).click();
    await expect.poll(() => payments.getByRole('alert').textContent()).toMatch(/\S/);
    await payments.getByLabel('Refund to (optional, default the payer)').fill('');
    await payments.getByLabel('Refund reason').selectOption('MANUAL');
    await payments.getByRole('button', { name: 'Refund payment' }).click();
    const issued = payments.getByRole('list', { name: 'Refunds' }).locator('li', { hasText: 'Refund 25.00 USDC' });
    await issued.waitFor();
    // the refund is paid on the sandbox ledger and the page shows it COMPLETED without a reload
    await expect.poll(() => issued.textContent(), { timeout: 30_000 }).toContain('COMPLETED');
    const refunds = (await fk.refunds.list({ funding_intent_id: intent.id })).data;
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ reason: 'MANUAL', amount: '25.0000000', status: 'COMPLETED' });

    // the request logs show the SDK's calls with the application's key (the create above among them)
    await page.getByRole('link', { name: 'Request logs' }).click();
    await page.getByRole('heading', { name: 'Request logs', level: 1 }).waitFor();
    const create = page.locator('li', { hasText: 'POST /v1/funding-intents' }).first();
    await create.waitFor({ timeout: 15_000 });
    expect(await create.textContent()).toContain('201');
  });

  it('a failing webhook delivery is visible with its attempt, and resend delivers it', async () => {
    const page = await signedUpAndIn('hooks@example.org', 1280);
    const key = await applicationWithKey(page, 'Hook Shop');
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByText('No webhook endpoints yet.').waitFor();
    await page.getByLabel('Endpoint URL').fill(receiverUrl);
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    expect(await page.getByTestId('webhook-secret').textContent()).toMatch(/^whsec_/);

    receiverStatus = 500;
    const fk = new Fundkit({ apiKey: key, baseUrl: api.url, maxRetries: 0 });
    await fk.fundingIntents.create({ amount: '5', asset: 'USDC' });
    const deliveries = page.getByRole('region', { name: /^Deliveries to / });
    await deliveries.getByText('Attempt 1: HTTP 500').waitFor({ timeout: 30_000 });

    receiverStatus = 200;
    await deliveries.getByRole('button', { name: /^Resend / }).first().click();
    await deliveries.getByText('HTTP 200').first().waitFor({ timeout: 30_000 });
    await deliveries.getByText('SUCCEEDED').first().waitFor({ timeout: 30_000 });

    await page.screenshot({ path: join(SHOTS, 'webhooks-1280.png'), fullPage: true });
    // disabling shows at once, and the API agrees
    await page.getByRole('button', { name: `Disable ${receiverUrl}` }).click();
    await page.getByRole('button', { name: `Enable ${receiverUrl}` }).waitFor();
    expect((await fk.webhookEndpoints.list()).data[0]!.enabled).toBe(false);
  });

  it('uploads a logo, and shows the API\'s refusal of a GIF', async () => {
    const page = await signedUpAndIn('logo@example.org', 1280);
    await applicationWithKey(page, 'Logo Shop');
    await page.getByText('No logo yet.').waitFor();
    await page.getByLabel(/^Logo file/).setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png(64) });
    await page.getByRole('button', { name: 'Upload logo' }).click();
    const logo = page.getByRole('img', { name: 'Logo of Logo Shop' });
    await logo.waitFor();
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(64);
    // a GIF is not one of the formats: the API's 415 message is shown
    const gif = Buffer.from('GIF89a@\u0000@\u0000', 'latin1');
    await page.getByLabel(/^Logo file/).setInputFiles({ name: 'x.gif', mimeType: 'image/gif', buffer: gif });
    await page.getByRole('button', { name: 'Upload logo' }).click();
    const token = await page.evaluate(() => sessionStorage.getItem('fundkit.dashboard.session'));
    const appId = (await api.request('GET', '/v1/applications', { key: token! })).body.data[0].id;
    const refused = await api.request('PUT', `/v1/applications/${appId}/logo`, { key: token!, body: gif, headers: { 'content-type': 'image/gif' } });
    expect(refused.body.error.code).toBe('LOGO_FORMAT_UNSUPPORTED');
    await expect.poll(() => page.locator('form[aria-labelledby="logo-heading"] [role=alert]').textContent()).toBe(refused.body.error.message);
  });

  it('signs up on the page, verifies with the link the sandbox shows (the one the server printed), then signs in', async () => {
    const page = await (await browser.newContext({ viewport: { width: 360, height: 800 } })).newPage();
    await page.goto(`${api.url}/dashboard`);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('Email').fill('newcomer@example.org');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('heading', { name: 'Verify your email' }).waitFor();
    // the sandbox shows the very link the server printed, and fills it in
    const line = api.logs.find((l) => l.email === 'newcomer@example.org' && typeof l.dashboard_url === 'string');
    await page.getByRole('link', { name: String(line!.dashboard_url) }).waitFor();
    expect(await page.getByLabel('Verification link').inputValue()).toBe(line!.dashboard_url);
    await page.getByRole('button', { name: 'Verify email' }).click();
    await page.getByText('Email verified.').waitFor();
    await page.getByRole('link', { name: 'Sign in', exact: true }).click();
    await page.getByLabel('Email').fill('newcomer@example.org');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Applications', level: 1 }).waitFor();
  });

  it('the printed dashboard link verifies when opened (no click), then the account signs in', async () => {
    expect((await api.request('POST', '/v1/auth/sign-up', { body: { email: 'linked@example.org', password: PASSWORD } })).status).toBe(201);
    const line = api.logs.find((l) => l.email === 'linked@example.org' && typeof l.dashboard_url === 'string');
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await page.goto(String(line!.dashboard_url));
    await page.getByText('Email verified.').waitFor();
    expect((await api.request('POST', '/v1/auth/sign-in', { body: { email: 'linked@example.org', password: PASSWORD } })).status).toBe(200);
  });

  it('at 360 px (and 1280 px) wide the pages fit and work', async () => {
    const page = await signedUpAndIn('narrow@example.org', 360);
    expect(await fitsWidth(page)).toBe(true);
    const key = await applicationWithKey(page, 'Tiny Shop');
    // the application's settings (its long deposit-type choices among them) stay inside the screen
    expect(await fitsWidth(page), 'applications at 360 px').toBe(true);
    const fk = new Fundkit({ apiKey: key, baseUrl: api.url, maxRetries: 0 });
    const intent = await fk.fundingIntents.create({ amount: '1234.5', asset: 'USDC', reference: 'narrow-1' });
    await page.goto(`${api.url}/dashboard/#/intents`);
    await page.getByRole('link', { name: '1,234.50 USDC' }).click();
    await page.getByRole('heading', { name: `Funding intent ${intent.id}` }).waitFor();
    await page.getByRole('button', { name: 'Pay 1,234.50 USDC' }).click();
    await expect.poll(() => page.getByRole('region', { name: 'Summary' }).textContent(), { timeout: 30_000 }).toContain('CREDITED');
    expect(await fitsWidth(page)).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'intent-360.png'), fullPage: true });
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      for (const path of ['today', 'intents', 'money', 'webhooks', 'events', 'logs']) {
        await page.goto(`${api.url}/dashboard/#/${path}`);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.locator('[aria-busy=false]').first().waitFor();
        expect(await fitsWidth(page), `${path} at ${width} px`).toBe(true);
        await page.screenshot({ path: join(SHOTS, `${path}-${width}.png`), fullPage: true });
      }
    }
    await page.setViewportSize({ width: 360, height: 800 });
    // the balance of the paid intent, per asset
    await page.goto(`${api.url}/dashboard/#/money`);
    await page.getByRole('row', { name: /USDC/ }).waitFor();
    // live mode is marked, and holds none of the test data
    await page.getByLabel('Mode', { exact: true }).selectOption('live');
    // the sandbox serves test keys only, and the banner says so rather than "real payments"
    await page.getByText('Live mode: this server is on the sandbox (no real money) and serves test keys only.').waitFor();
    await page.goto(`${api.url}/dashboard/#/intents`);
    await page.getByText('No funding intents yet: create one with the API or the SDK.').waitFor();
  });
});
