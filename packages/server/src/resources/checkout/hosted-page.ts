import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Router, type Request, type Response } from 'express';
import { packageRoot } from '../../package-root.js';
import type { CheckoutService } from './service.js';

/**
 * The hosted checkout page (`hosted_funding_url`, the session `url`) and the widget's script.
 *
 * The page mints a checkout session server-side for the intent on every load. A publishable key
 * would not do: keys are stored hashed, so the server cannot put one in a page. The link itself is
 * the capability (as a hosted invoice link is): the intent id carries 80 random bits, and the
 * session it yields may only read the public view, pick a quote and hand off, never move money
 * elsewhere. The token is short-lived and the page is never cached.
 */
export function hostedCheckoutRouter(checkout: CheckoutService): Router {
  const router = Router();
  router.get('/checkout/:name', (req, res, next) => {
    const name = String(req.params.name);
    if (name.endsWith('.js')) return serveScript(name, res);
    void hostedPage(checkout, name, req, res).catch(next);
  });
  router.get('/pay/:id', (req, res, next) => void hostedPage(checkout, String(req.params.id), req, res).catch(next));
  return router;
}

/** The built IIFE folder of @fundkit/checkout: the workspace sibling, else an installed copy. */
function widgetDir(): string | null {
  const sibling = join(packageRoot(), '..', 'checkout', 'dist', 'iife');
  if (existsSync(sibling)) return sibling;
  try {
    return dirname(createRequire(import.meta.url).resolve('@fundkit/checkout/iife'));
  } catch {
    return null;
  }
}

function serveScript(name: string, res: Response): void {
  const dir = widgetDir();
  const file = dir && /^[a-z0-9-]+\.js$/.test(name) ? join(dir, name) : null;
  if (!file || !existsSync(file)) {
    res.status(404).type('text/plain').send(dir ? 'not found' : 'the checkout widget is not built: run pnpm --filter @fundkit/checkout build');
    return;
  }
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Cache-Control', 'public, max-age=300');
  res.type('application/javascript').send(readFileSync(file));
}

async function hostedPage(checkout: CheckoutService, intentId: string, _req: Request, res: Response): Promise<void> {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Frame-Options', 'DENY');
  const minted = await checkout.createForHostedPage(intentId);
  if (!minted) return void res.status(404).type('html').send(shell('Payment not found', '<p class="msg">This payment link does not exist.</p>'));
  if (minted.expired) return void res.status(410).type('html').send(shell('Payment expired', '<p class="msg">This payment request has expired. Ask the merchant for a new link.</p>'));
  const options = { sessionToken: minted.session.session_token };
  const script = `FundkitCheckout.mount(document.getElementById('checkout'), Object.assign(${safeJson(options)}, { baseUrl: location.origin }));`;
  res.type('html').send(shell('Pay', `<div id="checkout"></div><script src="/checkout/fundkit-checkout.js"></script><script>${script}</script>`));
}

/** JSON inside a <script>: no `</script>` or `<!--` can break out. */
function safeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

function shell(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><style>body{margin:0;min-height:100vh;background:#f4f5f7;font-family:system-ui,sans-serif;display:flex;justify-content:center;align-items:flex-start}
#checkout{width:100%;max-width:440px;margin:32px 12px}.msg{margin:64px 16px;color:#333}</style></head><body>${body}</body></html>`;
}
