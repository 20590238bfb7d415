import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, startTestServer, type TestServer } from '../../packages/server/test/helpers/server.js';
import { ARTIFACTS, ensureWidgetBuilt, launchChromium, scriptPage, startMerchantSite, type MerchantSite } from './harness.js';

// An empty deposit pool: every create waits for its own account (CREATED / PROVISIONING).
let api: TestServer;
let site: MerchantSite;
let browser: Browser;
beforeAll(async () => {
  ensureWidgetBuilt();
  // …on a ledger that closes every second, as the network does: the account appears at a close
  api = await startTestServer({ env: { FUNDKIT_DEPOSIT_POOL_SIZE: '0', FUNDKIT_SANDBOX_LEDGER_SECONDS: '1', FUNDKIT_WORKER_INTERVAL_MS: '50', FUNDKIT_WORKER_BACKOFF_MS: '50' } });
  site = await startMerchantSite(api.url, KEYS.alphaSecretTest);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await api?.close();
});

/** Holds the pool worker, as a slow ledger would, so the page is seen while the address is prepared. */
const worker = () => api.server.services.pipeline.pipeline.pool as unknown as { pausedUntil: number };

describe('checkout widget while the deposit address is prepared', () => {
  it('shows "preparing", then the address and QR live, without a reload', async () => {
    worker().pausedUntil = Date.now() + 60_000;
    const created = await api.request('POST', '/v1/funding-intents', { key: KEYS.alphaSecretTest, body: { amount: '25', asset: 'USDC' } });
    // no address is published before the account exists on chain (issue 26): neither one
    expect(created.body).toMatchObject({ status: 'CREATED', deposit_account: { status: 'PROVISIONING', address: null },
      funding_instructions: { deposit: { address: null }, payment_uri: null } });
    const session = await api.request('POST', '/v1/checkout_sessions', {
      key: KEYS.alphaSecretTest, body: { funding_intent_id: created.body.id }, headers: { 'idempotency-key': `preparing_${created.body.id}` },
    });
    const page = await (await browser.newContext({ viewport: { width: 520, height: 1100 } })).newPage();
    await page.goto(site.page('/preparing', scriptPage(api.url, JSON.stringify({ sessionToken: session.body.session_token }))));
    await page.locator('[data-testid=preparing]').waitFor();
    expect(await page.locator('[data-testid=preparing]').textContent()).toContain('Preparing your payment address');
    expect(await page.locator('[data-testid=address]').count()).toBe(0);
    expect(await page.locator('.qr').count()).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, '20-preparing.png'), fullPage: true });
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 7));

    worker().pausedUntil = 0;
    api.server.services.pipeline.pipeline.nudgeJob('deposit-pool');
    await page.locator('[data-testid=address]').waitFor({ timeout: 10_000 });
    const ready = await api.request('GET', `/v1/funding-intents/${created.body.id}`, { key: KEYS.alphaSecretTest });
    expect(ready.body.deposit_account.address).toMatch(/^G[A-Z2-7]{55}$/);
    expect(await page.locator('[data-testid=address]').textContent()).toBe(ready.body.deposit_account.address);
    expect(await page.locator('.qr svg path').count()).toBeGreaterThan(0);
    expect(await page.locator('[data-testid=preparing]').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(7);
    await page.screenshot({ path: join(ARTIFACTS, '21-address-ready.png'), fullPage: true });
    await page.context().close();
  });
});
