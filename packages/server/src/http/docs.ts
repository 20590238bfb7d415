import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import express, { Router, type Request, type Response } from 'express';
import { defaultSpecPath } from '../spec/operations.js';
import { ApiError } from './api-error.js';
import { cspNonce } from './security-headers.js';
import { sendError } from './errors.js';
import { FORWARDING, isGenuineLoopback } from './loopback.js';

export interface DocsOptions {
  /** the spec file served at /openapi.yaml */
  specPath?: string;
  /** the "try it" proxy runs only in sandbox mode, and only for test keys */
  sandbox: boolean;
  /** a test secret key to prefill in the reference (the sandbox application's, when known) */
  prefillKey?: () => string | null;
}

/** The browser build of @scalar/api-reference: standalone.js plus the chunks it loads lazily. */
function scalarDir(): string | null {
  try {
    const dir = join(dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')), 'browser');
    return existsSync(join(dir, 'standalone.js')) ? dir : null;
  } catch {
    return null;
  }
}

/**
 * `/openapi.yaml`, `/docs` (Scalar, bundled, no CDN) and `/docs/proxy`.
 *
 * Why a proxy: the server refuses a secret key sent by a browser (it carries `Origin`) and marks the
 * key exposed. The reference is a developer console, the browser twin of curl, so its requests go
 * through this same-origin proxy, which drops `Origin` and forwards to this very server. It only
 * forwards to its own host, only for a page of its own origin, only `sk_test_`/`pk_test_` keys and
 * only in sandbox mode, so it cannot launder a live key or serve another site.
 */
export function docsRouter(options: DocsOptions): Router {
  const router = Router();
  const specPath = options.specPath ?? defaultSpecPath();
  const assets = scalarDir();
  router.get('/openapi.yaml', (_req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.type('application/yaml').send(readFileSync(specPath, 'utf8'));
  });
  if (assets) router.use('/docs/assets', express.static(assets, { maxAge: '1h', index: false }));
  router.get('/docs', (req, res) => void res.type('html').setHeader('Cache-Control', 'no-store').send(page(req, options, assets !== null).replace('<script>', `<script nonce="${cspNonce(res)}">`)));
  if (options.sandbox) router.all('/docs/proxy', express.raw({ type: () => true, limit: '2mb' }), (req, res, next) => void proxy(req, res).catch(next));
  return router;
}

function ownOrigin(req: Request): string {
  return `${req.protocol}://${req.get('host')}`;
}

function page(req: Request, options: DocsOptions, bundled: boolean): string {
  if (!bundled) return '<!doctype html><p>The API reference needs @scalar/api-reference installed. The contract is at <a href="/openapi.yaml">/openapi.yaml</a>.</p>';
  // the key is prefilled only for a browser on this machine: the server may listen on every interface
  const key = options.sandbox && isGenuineLoopback(req) ? options.prefillKey?.() ?? null : null;
  const config = {
    url: '/openapi.yaml',
    servers: [{ url: ownOrigin(req), description: 'This reference server' }],
    ...(options.sandbox ? { proxyUrl: '/docs/proxy' } : {}),
    ...(key ? { authentication: { preferredSecurityScheme: 'SecretKey', securitySchemes: { SecretKey: { token: key } } } } : {}),
    // everything stays on this machine: no web fonts, no hosted AI/MCP helpers, no telemetry
    withDefaultFonts: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    showDeveloperTools: 'never',
    telemetry: false,
  };
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Fundkit API reference</title></head><body><div id="app"></div>
<script src="/docs/assets/standalone.js"></script><script>Scalar.createApiReference('#app', ${json});</script></body></html>`;
}

const DROP = new Set(['origin', 'referer', 'host', 'cookie', 'connection', 'content-length', 'accept-encoding', 'transfer-encoding', ...FORWARDING]);

async function proxy(req: Request, res: Response): Promise<void> {
  const target = new URL(String(req.query.scalar_url ?? ''), ownOrigin(req));
  const origin = req.get('origin');
  const auth = req.get('authorization') ?? '';
  // the application envelope, request id included, like every other error answer
  const refuse = (why: string) => sendError(res, new ApiError('FORBIDDEN', `docs proxy: ${why}`));
  if (target.host !== req.get('host')) return refuse('forwards only to this server');
  // only the API: the proxy's own request comes from loopback, and pages that trust a loopback
  // client (/docs pre-fills the sandbox key, /metrics, /readyz's detail) must not be read through it
  if (!target.pathname.startsWith('/v1/')) return refuse('forwards only API operations (/v1/…)');
  if (origin && origin !== ownOrigin(req)) return refuse('only for the reference page of this server');
  if (/\b(sk|pk)_live_/.test(auth)) return refuse('live keys never go through the docs');
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (!DROP.has(name) && typeof value === 'string') headers.set(name, value);
  }
  // the client, for the limits of a server behind a trusted proxy (FUNDKIT_TRUST_PROXY): the proxy
  // must not turn a remote client into a loopback one. Ignored where no proxy is trusted.
  headers.set('x-forwarded-for', req.ip ?? req.socket.remoteAddress ?? '');
  headers.set('via', '1.1 fundkit-docs-proxy');
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && Buffer.isBuffer(req.body) && req.body.length > 0;
  const local = `http://127.0.0.1:${req.socket.localPort}${target.pathname}${target.search}`;
  const upstream = await fetch(local, { method: req.method, headers, body: hasBody ? new Uint8Array(req.body as Buffer) : undefined });
  res.status(upstream.status);
  upstream.headers.forEach((value, name) => {
    if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(name)) res.setHeader(name, value);
  });
  res.send(Buffer.from(await upstream.arrayBuffer()));
}
