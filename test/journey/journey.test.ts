import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, startTestServer, type TestServer } from '../../packages/server/test/helpers/server.js';
import { ensureWidgetBuilt, launchChromium } from '../browser/harness.js';

/**
 * The developer's first hour, end to end: the reference server (in-process, bootstrap application,
 * fast workers and retries) and the node-backend example (its own app factory, unmodified), a shop
 * page in Chromium, a sandbox payment, and the order marked paid only by the verified webhook.
 */

interface Shop {
  url: string;
  endpoint: { id: string; url: string };
  orders: { get(id: string): { status: string; fundingIntentId: string } | undefined };
  close(): Promise<void>;
}
type ShopModule = { startShop(options: Record<string, unknown>): Promise<Shop> };

const ARTIFACTS = join(import.meta.dirname, 'artifacts');
const key = KEYS.alphaSecretTest;
let api: TestServer;
let shop: Shop;
let browser: Browser;
const logs: string[] = [];

beforeAll(async () => {
  ensureWidgetBuilt();
  api = await startTestServer({
    env: { FUNDKIT_WORKER_INTERVAL_MS: '20', FUNDKIT_BACKFILL_INTERVAL_MS: '100', FUNDKIT_WORKER_BACKOFF_MS: '20', FUNDKIT_WEBHOOK_RETRY_SCHEDULE: '1s,2s' },
  });
  // a path in a variable: the example is plain JavaScript, typed here by ShopModule
  const entry = new URL('../../examples/node-backend/src/shop.js', import.meta.url).href;
  const { startShop } = (await import(entry)) as ShopModule;
  shop = await startShop({ apiKey: key, apiBase: api.url, port: 0, host: '127.0.0.1', logger: { info: (line: string) => void logs.push(line) } });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await shop?.close();
  await api?.close();
});

const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });

describe('journey: shop page → widget → sandbox payment → verified webhook → order paid', () => {
  it('goes all the way, and the delivery shows SUCCEEDED', async () => {
    const page = await browser.newPage({ viewport: { width: 800, height: 1000 } });
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(shop.url);
    await shot(page, '01-shop');

    await page.getByRole('button', { name: 'Buy' }).click();
    await page.waitForURL(/\/orders\/order_/);
    const orderId = page.url().split('/').pop()!;
    const intentId = shop.orders.get(orderId)!.fundingIntentId;
    expect(intentId).toMatch(/^fi_/);
    // the widget shows this order's intent
    await expect.poll(() => page.locator('[data-testid=amount]').textContent(), { timeout: 15_000 }).toContain('25.00');
    expect(await page.locator('[aria-current=step]').textContent()).toBe('Awaiting payment');
    expect(await page.locator('#order-status').textContent()).toBe('pending');
    await shot(page, '02-order-awaiting-payment');

    // the payer pays: a funded sandbox account submits a real payment (the test helper)
    const payment = await api.request('POST', `/v1/test_helpers/funding-intents/${intentId}/payments`, { key, body: { amount: '25', asset: 'USDC' } });
    expect(payment.status).toBe(201);

    await page.locator('[data-testid=end-done]').waitFor({ timeout: 20_000 });
    await expect.poll(() => page.locator('#order-status').textContent(), { timeout: 20_000 }).toBe('paid ✓ (webhook verified)');
    await shot(page, '03-order-paid');
    expect(logs.some((line) => line.includes(intentId) && line.includes('paid: 25.0000000 USDC'))).toBe(true);

    const deliveries = await api.request('GET', `/v1/webhooks/${shop.endpoint.id}/deliveries`, { key });
    const completed = deliveries.body.data.filter((d: { event_type: string }) => d.event_type === 'payment.completed');
    expect(completed).toHaveLength(1);
    expect(completed[0]).toMatchObject({ status: 'SUCCEEDED' });
    expect(completed[0].attempts[0].status_code).toBe(200);
    const event = await api.request('GET', `/v1/events/${completed[0].event_id}`, { key });
    expect(event.body.data.funding_intent_id).toBe(intentId);
    expect(pageErrors).toEqual([]);
  });

  it('a forged delivery is refused with 400 and changes nothing', async () => {
    const res = await fetch(`${shop.url}/webhooks/fundkit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'service-signature': `sha256=${'0'.repeat(64)}` },
      body: JSON.stringify({ id: 'evt_forged', type: 'payment.completed', data: { funding_intent_id: 'fi_x' } }),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe('signature_mismatch');
  });
});

describe('journey: the script-tag example', () => {
  let child: ChildProcess | undefined;
  afterAll(() => void child?.kill());

  it('serves a page whose widget (publishable key + intent id) follows a sandbox payment to done', async () => {
    const intent = await api.request('POST', '/v1/funding-intents', { key, body: { amount: '10.00', asset: 'USDC' } });
    child = spawn(process.execPath, ['serve.js'], {
      cwd: new URL('../../examples/script-tag/', import.meta.url).pathname,
      env: { ...process.env, PORT: '0', FUNDKIT_API_BASE: api.url, FUNDKIT_PUBLISHABLE_KEY: KEYS.alphaPublishableTest, FUNDKIT_INTENT_ID: intent.body.id },
    });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk));
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk));
    await expect.poll(() => out, { timeout: 10_000 }).toContain('Checkout by script tag on');
    const url = /on (http:\/\/localhost:\d+)/.exec(out)![1]!;
    const page = await browser.newPage({ viewport: { width: 600, height: 900 } });
    await page.goto(url);
    await expect.poll(() => page.locator('[data-testid=amount]').textContent(), { timeout: 15_000 }).toContain('10.00');
    await shot(page, '04-script-tag-awaiting');
    await api.request('POST', `/v1/test_helpers/funding-intents/${intent.body.id}/payments`, { key, body: { amount: '10', asset: 'USDC' } });
    await page.locator('[data-testid=end-done]').waitFor({ timeout: 20_000 });
    await shot(page, '05-script-tag-done');
  });
});
