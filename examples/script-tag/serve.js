// A tiny static server for index.html. Its only other job: tell the page which intent to show.
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const apiBase = (process.env.FUNDKIT_API_BASE ?? 'http://localhost:4010').replace(/\/+$/, '');
const port = Number(process.env.PORT ?? 3001);

/** The sandbox keys `pnpm start` saved at the repository root (.fundkit/), found by walking up. */
function savedKeys() {
  for (let dir = resolve(process.cwd()); ; dir = dirname(dir)) {
    const file = join(dir, '.fundkit', 'sandbox-keys.json');
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')).applications[0];
    if (dirname(dir) === dir) return {};
  }
}

const keys = savedKeys();
const publishableKey = process.env.FUNDKIT_PUBLISHABLE_KEY ?? keys.publishable_keys?.[0];
const secretKey = process.env.FUNDKIT_API_KEY ?? keys.secret_keys?.[0];
if (!publishableKey) throw new Error('set FUNDKIT_PUBLISHABLE_KEY (pk_test_…), or run `pnpm start` at the repository root first');

/** FUNDKIT_INTENT_ID, else a fresh 10 USDC intent (this needs the secret key, server-side only). */
async function intentId() {
  if (process.env.FUNDKIT_INTENT_ID) return process.env.FUNDKIT_INTENT_ID;
  if (!secretKey) throw new Error('set FUNDKIT_INTENT_ID, or FUNDKIT_API_KEY to create one');
  const res = await fetch(`${apiBase}/v1/funding-intents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json', 'idempotency-key': `script_tag_${Date.now()}` },
    body: JSON.stringify({ amount: '10.00', asset: 'USDC', reference: 'script-tag-example' }),
  });
  if (!res.ok) throw new Error(`creating an intent failed: ${res.status} ${await res.text()}`);
  return (await res.json()).id;
}

const id = await intentId();
const config = `window.FUNDKIT = ${JSON.stringify({ apiBase, publishableKey, intentId: id })};`;
// What the page loads: its own scripts, the widget's script, logos and calls from the API, the
// hosted Horizons the wallet submits to; styles inline (the page's and the widget's own)
const api = new URL(apiBase).origin;
const headers = {
  'content-security-policy': [
    "default-src 'none'", "base-uri 'none'", "object-src 'none'", "frame-ancestors 'none'", `script-src 'self' ${api}`,
    "style-src 'self' 'unsafe-inline'", `img-src 'self' data: ${api}`, `connect-src 'self' ${api} https://horizon-testnet.stellar.org https://horizon.stellar.org`,
  ].join('; '),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};
const server = createServer((req, res) => {
  const path = (req.url ?? '/').split('?')[0];
  if (path === '/config.js') return void res.writeHead(200, { ...headers, 'content-type': 'text/javascript' }).end(config);
  if (path === '/mount.js') return void res.writeHead(200, { ...headers, 'content-type': 'text/javascript' }).end(readFileSync(join(here, 'mount.js')));
  if (path === '/' || path === '/index.html') return void res.writeHead(200, { ...headers, 'content-type': 'text/html; charset=utf-8' }).end(readFileSync(join(here, 'index.html')));
  res.writeHead(404, headers).end('not found');
});
server.listen(port, () => {
  console.log(`Checkout by script tag on http://localhost:${server.address().port}  (intent ${id}, ${publishableKey.slice(0, 12)}…, API ${apiBase})`);
  console.log(`Pay it in the sandbox:  pnpm fundkit pay ${id} --amount 10`);
});
