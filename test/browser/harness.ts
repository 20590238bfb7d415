import { execSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const ARTIFACTS = join(here, 'artifacts');
const CHECKOUT = join(here, '..', '..', 'packages', 'checkout');

/** The IIFE the reference server serves; built once if a fresh checkout has no dist yet. */
export function ensureWidgetBuilt(): void {
  if (!existsSync(join(CHECKOUT, 'dist', 'iife', 'fundkit-checkout.js'))) execSync('pnpm build', { cwd: CHECKOUT, stdio: 'inherit' });
  mkdirSync(ARTIFACTS, { recursive: true });
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

async function readBody(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
}

export interface MerchantSite {
  url: string;
  /** serve `html` at `path` */
  page(path: string, html: string): string;
  close(): Promise<void>;
}

/**
 * The merchant's own site on another 127.0.0.1 origin: static pages, and the small resume endpoint
 * a merchant backend exposes (what the SDK's createResumeHandler does): it holds the secret key.
 */
export async function startMerchantSite(apiUrl: string, secretKey: string): Promise<MerchantSite> {
  const pages = new Map<string, string>();
  let n = 0;
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (req.method === 'POST' && path === '/resume') return void resume(req, res);
    const html = pages.get(path);
    res.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(html ?? 'not found');
  });
  async function resume(req: IncomingMessage, res: import('node:http').ServerResponse): Promise<void> {
    const { handoff_token } = JSON.parse(await readBody(req)) as { handoff_token: string };
    const upstream = await fetch(`${apiUrl}/v1/checkout_sessions/resume`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json', 'idempotency-key': `merchant_resume_${Date.now()}_${n++}` },
      body: JSON.stringify({ handoff_token }),
    });
    res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(await upstream.text());
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    page(path, html) {
      pages.set(path, html);
      return url + path;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A merchant page loading the widget with a <script> tag from the API server. */
export function scriptPage(apiUrl: string, options: string, extraHead = ''): string {
  return `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">${extraHead}</head>
<body><h1>Merchant shop</h1><div id="pay"></div>
<script src="${apiUrl}/checkout/fundkit-checkout.js"></script>
<script>window.events = []; const handle = FundkitCheckout.mount('#pay', Object.assign({ baseUrl: ${JSON.stringify(apiUrl)} }, ${options}));
['status','complete','error'].forEach((e) => handle.on(e, (p) => window.events.push([e, p && (p.status || p.code)])));</script></body></html>`;
}

export const RESUME_OPTION = `{ resume: (token) => fetch('/resume', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ handoff_token: token }) })
  .then((r) => r.ok ? r.json() : r.json().then((b) => { throw new Error(b.error ? b.error.message : 'resume failed'); })) }`;
