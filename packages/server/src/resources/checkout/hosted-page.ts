import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { clientKey } from '../../http/client-key.js';
import { cspNonce } from '../../http/security-headers.js';
import { packageRoot } from '../../package-root.js';
import type { PageLimits } from './page-limit.js';
import type { CheckoutService } from './service.js';

/**
 * The hosted checkout page (`hosted_funding_url`, the session `url`) and the widget's script.
 *
 * A page opens only with the link's secret (`?k=`, resources/funding-intents/checkout-link.ts):
 * the bare intent id, a wrong secret and an unknown intent all get the same page, which says the
 * link is incomplete and shows nothing of any intent. A publishable key would not do for the page's
 * session: keys are stored hashed, so the server cannot put one in a page. Every load of one link
 * reuses the intent's one link session (a fresh short-lived token each time); the page is never
 * cached, and each client may load pages at a bounded rate.
 */
export function hostedCheckoutRouter(checkout: CheckoutService, headers: RequestHandler, limits: PageLimits): Router {
  const router = Router();
  const page = (req: Request, res: Response, next: NextFunction) => {
    void limits.take(clientKey(req)).then((wait) => {
      if (wait > 0) {
        res.setHeader('Retry-After', String(wait));
        return void res.status(429).type('html').send(shell('Too many requests', '<p class="msg">Too many requests from this address. Wait a moment, then reload the page.</p>'));
      }
      headers(req, res, (error?: unknown) => {
        if (error) return next(error);
        void hostedPage(checkout, String(req.params.id), req, res).catch(next);
      });
    }).catch(next);
  };
  router.get('/checkout/:id', (req, res, next) => {
    if (String(req.params.id).endsWith('.js')) return serveScript(String(req.params.id), res);
    page(req, res, next);
  });
  router.get('/pay/:id', page);
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
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.type('application/javascript').send(readFileSync(file));
}

const INCOMPLETE = '<p class="msg">This payment link is incomplete or no longer valid. Open the full link you were sent, or ask the merchant for a new one.</p>';

async function hostedPage(checkout: CheckoutService, intentId: string, req: Request, res: Response): Promise<void> {
  res.setHeader('Cache-Control', 'no-store');
  const opened = await checkout.openHostedLink(intentId, req.query.k);
  if (!opened) return void res.status(404).type('html').send(shell('Payment link incomplete', INCOMPLETE));
  if (opened.expired) return void res.status(410).type('html').send(shell('Payment expired', '<p class="msg">This payment request has expired. Ask the merchant for a new link.</p>'));
  const options = { sessionToken: opened.session.session_token };
  const script = `FundkitCheckout.mount(document.getElementById('checkout'), Object.assign(${safeJson(options)}, { baseUrl: location.origin }));`;
  res.type('html').send(shell('Pay', `<div id="checkout"></div><script src="/checkout/fundkit-checkout.js"></script><script nonce="${cspNonce(res)}">${script}</script>`));
}

/** JSON inside a <script>: no `</script>` or `<!--` can break out. */
function safeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

/** The page around the widget or a message: one main landmark and a heading for screen readers (axe). */
function shell(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><style>body{margin:0;min-height:100vh;background:#f4f5f7;font-family:system-ui,sans-serif;display:flex;justify-content:center;align-items:flex-start}
#checkout{width:100%;max-width:440px;margin:32px 12px}.msg{margin:64px 16px;color:#333}
main{width:100%;display:flex;justify-content:center}.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}</style></head>
<body><main><h1 class="sr">${title}</h1>${body}</main></body></html>`;
}
