/**
 * The checkout widget: bundle sizes (raw and gzip) and, in Chromium, the time from the script
 * tag's load to the first render in the widget's shadow root, and to the intent's amount shown.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from '@fundkit/server';
import { chromium } from 'playwright-core';
import { gzSize, median, ROOT, RUNS } from './lib.js';

const KEY = 'sk_test_benchCheckoutKey00000000001';
const IIFE = join(ROOT, 'packages/checkout/dist/iife');
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export interface CheckoutFigures { files: { name: string; raw: number; gz: number }[]; firstRenderMs: number | null; readyMs: number | null; note?: string }

/** The page marks the moment before the script tag, then watches the shadow root. */
function page(sessionToken: string, apiBase: string): string {
  return `<!doctype html><html><body><div id="pay"></div>
<script>window.__t0 = performance.now();</script>
<script src="/fundkit-checkout.js"></script>
<script>
  const target = document.getElementById('pay');
  FundkitCheckout.mount(target, { sessionToken: ${JSON.stringify(sessionToken)}, baseUrl: ${JSON.stringify(apiBase)} });
  const host = target.querySelector('[data-fundkit-checkout]');
  const watch = () => {
    const root = host.shadowRoot;
    if (root && !window.__first && root.querySelector('*:not(style)')) window.__first = performance.now() - window.__t0;
    if (root && !window.__ready && /25(\\.0+)?/.test(root.textContent || '')) window.__ready = performance.now() - window.__t0;
    if (!window.__ready) requestAnimationFrame(watch);
  };
  new MutationObserver(watch).observe(host.shadowRoot, { childList: true, subtree: true, characterData: true });
  watch();
</script></body></html>`;
}

export async function benchCheckout(): Promise<CheckoutFigures> {
  const files = ['fundkit-checkout.js', 'fundkit-checkout-wallet.js'].map((name) => ({ name, raw: readFileSync(join(IIFE, name)).length, gz: gzSize(join(IIFE, name)) }));
  const api = await createServer({
    env: { FUNDKIT_DB: ':memory:', FUNDKIT_DATA_DIR: mkdtempSync(join(tmpdir(), 'fundkit-bench-co-')), LOG_LEVEL: 'silent', FUNDKIT_RATE_LIMIT: '100000' },
    bootstrap: { applications: [{ name: 'Checkout', secret_keys: [KEY], settlement_address: 'GDVEU3DD4KOFECV66VIHWEZOYX4ZKR3WV27L464SIIPOU2IUI3JCZA57' }] },
  });
  const { url: apiBase } = await api.listen(0, '127.0.0.1');
  const post = async (path: string, body: unknown) => (await fetch(apiBase + path, {
    method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'idempotency-key': `bench-${Math.random()}` }, body: JSON.stringify(body),
  })).json() as Promise<Record<string, string>>;
  const script = readFileSync(join(IIFE, 'fundkit-checkout.js'));
  let html = '';
  const web = createHttpServer((req, res) => {
    if (req.url === '/fundkit-checkout.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    res.writeHead(200, { 'content-type': 'text/html' }).end(html);
  });
  await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ARGS });
  try {
    const first: number[] = [];
    const ready: number[] = [];
    for (let i = 0; i < RUNS + 1; i++) {
      const intent = await post('/v1/funding-intents', { amount: '25.00', asset: 'USDC' });
      const session = await post('/v1/checkout_sessions', { funding_intent_id: intent.id });
      html = page(session.session_token!, apiBase);
      const context = await browser.newContext();
      const tab = await context.newPage();
      await tab.goto(`http://127.0.0.1:${(web.address() as AddressInfo).port}/`);
      await tab.waitForFunction(() => (window as unknown as { __ready?: number }).__ready !== undefined, undefined, { timeout: 15_000 });
      const times = await tab.evaluate(() => ({ first: (window as unknown as { __first: number }).__first, ready: (window as unknown as { __ready: number }).__ready }));
      await context.close();
      // the first page load warms the browser's process and caches: not counted
      if (i === 0) continue;
      first.push(times.first);
      ready.push(times.ready);
    }
    return { files, firstRenderMs: median(first), readyMs: median(ready) };
  } finally {
    await browser.close();
    web.closeAllConnections();
    await new Promise((r) => web.close(r));
    await api.close();
  }
}
