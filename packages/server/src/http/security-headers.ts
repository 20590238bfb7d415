import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet, { type HelmetOptions } from 'helmet';

/** The pages a browser renders, each with a policy that allows only what it loads. */
export type PageKind = 'dashboard' | 'checkout' | 'docs';

/** The hosted Horizons the checkout's wallet payment submits to (packages/checkout/src/wallet.ts). */
const HOSTED_HORIZONS = ['https://horizon-testnet.stellar.org', 'https://horizon.stellar.org'];

type Directive = string | ((req: IncomingMessage, res: ServerResponse) => string);

/** The script nonce of this response: an inline script of the page carries it (`nonce="…"`). */
export function cspNonce(res: Response): string {
  return String(res.locals.cspNonce ?? '');
}

const nonce: Directive = (_req, res) => `'nonce-${cspNonce(res as Response)}'`;

/**
 * What each page loads. The dashboard is one module script and one stylesheet of its own; the
 * checkout and the docs run one inline script each (nonce) and inject styles at run time (the
 * checkout widget's <style>, Scalar's), hence 'unsafe-inline' for styles only. Logos come from
 * the public URL, which may be another origin than the page's (localhost vs 127.0.0.1).
 */
function directives(kind: PageKind, publicOrigin: Directive): Record<string, Directive[]> {
  const base: Record<string, Directive[]> = {
    'default-src': ["'none'"],
    'base-uri': ["'none'"],
    'object-src': ["'none'"],
    'form-action': ["'self'"],
    // none of these pages is meant to be framed: the hosted checkout is a top-level page for the
    // payer (merchants embed the widget's script, not the page), so framing would only help clickjacking
    'frame-ancestors': ["'none'"],
  };
  switch (kind) {
    case 'dashboard':
      return {
        ...base, 'script-src': ["'self'"], 'style-src': ["'self'"], 'img-src': ["'self'", 'data:', publicOrigin],
        'connect-src': ["'self'", publicOrigin], 'font-src': ["'self'"], 'manifest-src': ["'self'"],
      };
    case 'checkout':
      return {
        ...base, 'script-src': ["'self'", nonce], 'style-src': ["'self'", "'unsafe-inline'"], 'img-src': ["'self'", 'data:', publicOrigin],
        'connect-src': ["'self'", publicOrigin, ...HOSTED_HORIZONS],
      };
    case 'docs':
      return {
        ...base, 'script-src': ["'self'", nonce], 'style-src': ["'self'", "'unsafe-inline'"], 'img-src': ["'self'", 'data:', 'blob:'],
        'font-src': ["'self'", 'data:'], 'connect-src': ["'self'"], 'worker-src': ["'self'", 'blob:'],
      };
  }
}

/**
 * Security headers for a browser-rendered page (helmet): its CSP, `nosniff`, `no-referrer` (a
 * checkout link carries its secret in the query), no framing, and HSTS when the public URL is
 * https (HSTS over plain http means nothing, and a local sandbox must stay reachable over http).
 */
export function pageHeaders(kind: PageKind, publicBaseUrl: () => string): RequestHandler {
  const publicOrigin: Directive = () => new URL(publicBaseUrl()).origin;
  const options = (hsts: boolean): HelmetOptions => ({
    contentSecurityPolicy: { useDefaults: false, directives: directives(kind, publicOrigin) },
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
    // the sites a merchant runs the widget on read nothing of these pages
    crossOriginResourcePolicy: { policy: 'same-origin' },
    strictTransportSecurity: hsts ? { maxAge: 31_536_000, includeSubDomains: false } : false,
  });
  const plain = helmet(options(false));
  const https = helmet(options(true));
  return (req: Request, res: Response, next: NextFunction) => {
    res.locals.cspNonce = randomBytes(16).toString('base64');
    (publicBaseUrl().startsWith('https:') ? https : plain)(req, res, next);
  };
}
