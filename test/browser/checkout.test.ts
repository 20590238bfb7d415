import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, startTestServer, type TestServer } from '../../packages/server/test/helpers/server.js';
import { ARTIFACTS, ensureWidgetBuilt, launchChromium, RESUME_OPTION, scriptPage, startMerchantSite, type MerchantSite } from './harness.js';
import { run, value } from '../../packages/server/test/helpers/raw-sql.js';

let api: TestServer;
let site: MerchantSite;
let browser: Browser;
beforeAll(async () => {
  ensureWidgetBuilt();
  api = await startTestServer();
  site = await startMerchantSite(api.url, KEYS.alphaSecretTest);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await api?.close();
});

let seq = 0;
const idem = () => `e2e_checkout_${Date.now()}_${seq++}`;

async function createIntent(amount = '25', extra: Record<string, unknown> = {}): Promise<string> {
  const res = await api.request('POST', '/v1/funding-intents', { key: KEYS.alphaSecretTest, body: { amount, asset: 'USDC', ...extra } });
  return res.body.id as string;
}

async function createSession(intentId: string): Promise<{ id: string; session_token: string; url: string }> {
  const res = await api.request('POST', '/v1/checkout_sessions', { key: KEYS.alphaSecretTest, body: { funding_intent_id: intentId }, headers: { 'idempotency-key': idem() } });
  expect(res.status).toBe(201);
  return res.body;
}

/** Stands in for the payment observer: applies money and walks the intent as the worker would. */
async function observe(intentId: string, receivedStroops: bigint, ...statuses: string[]): Promise<void> {
  const { sql, services } = api.server;
  await sql.transaction(async () => {
    await run(sql, 'UPDATE funding_intents SET received_amount = ? WHERE id = ?', receivedStroops, intentId);
    for (const status of statuses) await services.pipeline.pipeline.machine.transition(intentId, status as never, 'e2e observer');
  });
}

async function openMerchantPage(name: string, options: string, extraHead = '', viewport = { width: 520, height: 1100 }): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await page.goto(site.page(`/${name}`, scriptPage(api.url, options, extraHead)));
  return page;
}

const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });

describe('checkout widget in a real browser against the reference server', () => {
  it('renders an intent from a <script> tag: amount, address, QR, steps', async () => {
    const intentId = await createIntent('25');
    const session = await createSession(intentId);
    const page = await openMerchantPage('render', JSON.stringify({ sessionToken: session.session_token }));
    await expect.poll(() => page.locator('[data-testid=amount]').textContent()).toContain('25.00');
    expect(await page.locator('[data-testid=address]').textContent()).toMatch(/^G[A-Z2-7]{55}$/);
    expect(await page.locator('.qr svg path').count()).toBeGreaterThan(0);
    expect(await page.locator('[aria-current=step]').textContent()).toBe('Awaiting payment');
    expect(await page.locator('[data-testid=live-status]').getAttribute('aria-live')).toBe('polite');
    await shot(page, '01-awaiting');
    await page.setViewportSize({ width: 320, height: 1100 });
    const width = await page.locator('[data-fundkit-checkout]').evaluate((el) => el.getBoundingClientRect().width);
    expect(width).toBeLessThanOrEqual(320);
    await shot(page, '01b-awaiting-320px');
    await page.context().close();
  });

  it('shows a muxed intent\'s M… address, and its wallet link pays that address', async () => {
    const intentId = await createIntent('12', { deposit_type: 'muxed' });
    const session = await createSession(intentId);
    const page = await openMerchantPage('muxed', JSON.stringify({ sessionToken: session.session_token }));
    await expect.poll(() => page.locator('[data-testid=address]').textContent()).toMatch(/^M[A-Z2-7]{68}$/);
    const address = (await page.locator('[data-testid=address]').textContent())!;
    const link = new URL((await page.locator('.qr a').getAttribute('href'))!.replace('web+stellar:pay?', 'https://sep7.invalid/?'));
    expect(link.searchParams.get('destination')).toBe(address);
    expect(link.searchParams.get('amount')).toBe('12.0000000');
    expect(await page.locator('[aria-current=step]').textContent()).toBe('Awaiting payment');
    await page.context().close();
  });

  it('follows the intent live over SSE: partial payment shows the remainder, then done without reload', async () => {
    const intentId = await createIntent('25');
    const session = await createSession(intentId);
    const page = await openMerchantPage('live', JSON.stringify({ sessionToken: session.session_token }));
    await page.locator('[data-testid=amount]').waitFor();
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
    await observe(intentId, 100_000_000n, 'PARTIALLY_FUNDED');
    await expect.poll(() => page.locator('[data-testid=remaining]').textContent(), { timeout: 10_000 }).toContain('15.00 USDC still to pay');
    expect(await page.locator('[data-testid=pay-amount]').textContent()).toBe('15.0000000 USDC');
    await shot(page, '02-partial');
    await observe(intentId, 250_000_000n, 'PAYMENT_DETECTED');
    await expect.poll(() => page.locator('[aria-current=step]').textContent(), { timeout: 10_000 }).toBe('Payment received');
    await shot(page, '03-received');
    await observe(intentId, 250_000_000n, 'PAYMENT_CONFIRMED', 'SETTLING', 'SETTLED', 'CREDITED');
    await page.locator('[data-testid=end-done]').waitFor({ timeout: 10_000 });
    expect(await page.evaluate(() => (window as unknown as { marker: number }).marker)).toBe(42);
    const events = await page.evaluate(() => (window as unknown as { events: [string, string][] }).events);
    expect(events).toContainEqual(['complete', 'CREDITED']);
    await shot(page, '04-done');
    await page.context().close();
  });

  it('a real sandbox payment moves the page live to done', async () => {
    // Needs createTestPayment (another engineer is building it); runs by itself once it is routed.
    const intentId = await createIntent('10');
    const session = await createSession(intentId);
    const page = await openMerchantPage('sandbox', JSON.stringify({ sessionToken: session.session_token }));
    await page.locator('[data-testid=amount]').waitFor();
    const pay = (amount: string) => api.request('POST', `/v1/test_helpers/funding-intents/${intentId}/payments`, { key: KEYS.alphaSecretTest, body: { amount, asset: 'USDC' } });
    expect((await pay('4')).status).toBe(201);
    await expect.poll(() => page.locator('[data-testid=remaining]').textContent(), { timeout: 20_000 }).toContain('6.00 USDC still to pay');
    await shot(page, '05-sandbox-partial');
    expect((await pay('6')).status).toBe(201);
    await page.locator('[data-testid=end-done]').waitFor({ timeout: 30_000 });
    await shot(page, '06-sandbox-done');
    await page.context().close();
  });

  it('re-prices on its own when the quotes lapse (a server whose quotes live 2 seconds)', async () => {
    const shortLived = await startTestServer({ env: { FUNDKIT_QUOTE_TTL_SECONDS: '2' } });
    const shortSite = await startMerchantSite(shortLived.url, KEYS.alphaSecretTest);
    try {
      const intent = await shortLived.request('POST', '/v1/funding-intents', { key: KEYS.alphaSecretTest, body: { amount: '25', asset: 'USDC' } });
      const quotesOf = async () => Number(await value(shortLived.server.sql, 'SELECT COUNT(*) AS n FROM quotes WHERE funding_intent_id = ?', intent.body.id));
      const session = await shortLived.request('POST', '/v1/checkout_sessions', { key: KEYS.alphaSecretTest, body: { funding_intent_id: intent.body.id }, headers: { 'idempotency-key': idem() } });
      const page = await (await browser.newContext({ viewport: { width: 520, height: 1100 } })).newPage();
      await page.goto(shortSite.page('/requote', scriptPage(shortLived.url, JSON.stringify({ sessionToken: session.body.session_token }))));
      await page.locator('[data-testid=option]').first().waitFor();
      const firstRound = await quotesOf();
      await shot(page, '07-options');
      // no reload, no click: the widget's countdown runs out and it asks for fresh options
      await expect.poll(quotesOf, { timeout: 10_000 }).toBeGreaterThan(firstRound);
      await expect.poll(() => page.locator('[data-testid=option]').count()).toBeGreaterThan(1);
      await page.context().close();
    } finally {
      await shortSite.close();
      await shortLived.close();
    }
  });

  it('accepts a real quote, and re-quotes when the accepted one had lapsed (real options)', async () => {
    const intentId = await createIntent('25');
    const session = await createSession(intentId);
    const page = await openMerchantPage('real-quotes', JSON.stringify({ sessionToken: session.session_token }));
    await page.locator('[data-testid=amount]').waitFor();
    const options = page.locator('[data-testid=option]');
    await expect.poll(() => options.count(), { timeout: 10_000 }).toBeGreaterThan(1);
    await shot(page, '07-real-options');
    const other = options.filter({ hasNot: page.locator('input:checked') }).first();
    const code = ((await other.locator('strong').textContent()) ?? '').split(' ').pop()!;
    await other.click();
    await expect.poll(() => page.locator('[data-testid=pay-amount]').textContent(), { timeout: 10_000 }).toContain(code);
    await shot(page, '08-real-accepted');
    // every ACTIVE quote of the intent lapses while the page still shows them
    await run(api.server.sql, "UPDATE quotes SET expires_at = ? WHERE funding_intent_id = ? AND status = 'ACTIVE'", new Date(Date.now() - 1000).toISOString(), intentId);
    await options.filter({ hasNot: page.locator('input:checked') }).first().click();
    await expect.poll(() => page.locator('[data-testid=quote-note]').textContent(), { timeout: 10_000 }).toMatch(/price expired|Refreshing/);
    await shot(page, '08b-real-requoted');
    await page.context().close();
  });

  it('hands off to another device once; the same link fails the second time', async () => {
    const intentId = await createIntent('12.5');
    const session = await createSession(intentId);
    const page = await openMerchantPage('handoff-from', JSON.stringify({ sessionToken: session.session_token }));
    await page.locator('[data-testid=handoff-start]').click();
    const link = await page.locator('[data-testid=handoff-link]').getAttribute('href');
    expect(link).toContain('#fk_handoff=hot_');
    await shot(page, '09-handoff-qr');
    site.page('/handoff-from-resume', scriptPage(api.url, RESUME_OPTION));
    const target = link!.replace('/handoff-from#', '/handoff-from-resume#');

    const phone = await browser.newContext({ viewport: { width: 360, height: 900 } });
    const first = await phone.newPage();
    await first.goto(target);
    await expect.poll(() => first.locator('[data-testid=amount]').textContent()).toContain('12.50');
    expect(first.url()).not.toContain('fk_handoff');
    await shot(first, '10-handoff-resumed');

    const second = await (await browser.newContext()).newPage();
    await second.goto(target);
    await second.locator('[data-testid=error]').waitFor();
    expect(await second.locator('[data-testid=error]').textContent()).toMatch(/expired or was already used/);
    await shot(second, '11-handoff-reused');
    await phone.close();
    await second.context().close();
    await page.context().close();
  });

  it('host-page CSS cannot break the widget (dark theme, Spanish)', async () => {
    // everything a careless or hostile stylesheet does to generic elements and to our host itself
    const hostile = `<style>* { all: unset !important; } div, p, span, section, li, strong { color: red !important; font-size: 3px !important; line-height: 0 !important; }
      button, svg, img, input, ol { display: none !important; } [data-fundkit-checkout] { display: none !important; visibility: hidden !important; opacity: 0 !important; }
      body { display: block !important; background: #fc0 !important; padding: 12px !important; } h1 { display: block !important; font: 700 24px serif !important; }</style>`;
    const intentId = await createIntent('7');
    const session = await createSession(intentId);
    const options = JSON.stringify({ sessionToken: session.session_token, locale: 'es', appearance: { theme: 'dark', accentColor: '#e0457b', radius: '4px' } });
    const page = await openMerchantPage('hostile', options, hostile);
    const amount = page.locator('[data-testid=amount]');
    await expect.poll(() => amount.textContent()).toContain('7.00');
    expect(await amount.isVisible()).toBe(true);
    const box = await page.locator('[data-fundkit-checkout]').boundingBox();
    expect(box?.height ?? 0).toBeGreaterThan(300);
    const fontSize = await amount.evaluate((el) => getComputedStyle(el).fontSize);
    expect(fontSize).toBe('30px');
    expect(await page.locator('[data-testid=handoff-start]').isVisible()).toBe(true);
    expect(await page.locator('.qr svg').isVisible()).toBe(true);
    expect(await page.locator('[aria-current=step]').textContent()).toBe('Esperando el pago');
    await shot(page, '12-hostile-css-dark-es');
    await page.context().close();
  });

  it('works as a <fundkit-checkout> element with a publishable key (read-only view, events as DOM events)', async () => {
    const intentId = await createIntent('4.2');
    const html = `<!doctype html><html><body><fundkit-checkout publishable-key="${KEYS.alphaPublishableTest}" intent-id="${intentId}" base-url="${api.url}" locale="en"></fundkit-checkout>
      <script>window.seen = []; document.addEventListener('fundkit:status', (e) => window.seen.push(e.detail.status));</script>
      <script src="${api.url}/checkout/fundkit-checkout.js"></script></body></html>`;
    const page = await (await browser.newContext()).newPage();
    await page.goto(site.page('/element', html));
    await expect.poll(() => page.locator('[data-testid=amount]').textContent()).toContain('4.20');
    await expect.poll(() => page.evaluate(() => (window as unknown as { seen: string[] }).seen)).toContain('AWAITING_PAYMENT');
    // a publishable key cannot hand off or accept quotes: those controls are not offered
    expect(await page.locator('[data-testid=handoff-start]').count()).toBe(0);
    await shot(page, '15-element-publishable-key');
    await page.context().close();
  });

  it('a <fundkit-checkout> element whose attributes are set after it is attached shows the intent', async () => {
    const intentId = await createIntent('5.5');
    // the element is in the page before the script knows which intent to show (e.g. it fetched it)
    const html = `<!doctype html><html><body><fundkit-checkout id="fk" base-url="${api.url}"></fundkit-checkout>
      <script src="${api.url}/checkout/fundkit-checkout.js"></script>
      <script>setTimeout(() => { const el = document.getElementById('fk');
        el.setAttribute('publishable-key', '${KEYS.alphaPublishableTest}'); el.setAttribute('intent-id', '${intentId}'); }, 300);</script>
      </body></html>`;
    const page = await (await browser.newContext()).newPage();
    await page.goto(site.page('/element-late', html));
    await expect.poll(() => page.locator('[data-testid=amount]').textContent()).toContain('5.50');
    await page.context().close();
  });

  it('the hosted_funding_url serves the widget with a session minted by the server', async () => {
    const intent = await api.request('POST', '/v1/funding-intents', { key: KEYS.alphaSecretTest, body: { amount: '3', asset: 'USDC' } });
    const page = await (await browser.newContext({ viewport: { width: 480, height: 1000 } })).newPage();
    await page.goto(intent.body.hosted_funding_url.replace('localhost', '127.0.0.1'));
    await expect.poll(() => page.locator('[data-testid=amount]').textContent()).toContain('3.00');
    await shot(page, '13-hosted-page');
    await observe(intent.body.id, 0n, 'EXPIRED');
    await page.locator('[data-testid=end-expired]').waitFor({ timeout: 10_000 });
    await shot(page, '14-expired');
    await page.context().close();
  });
});
