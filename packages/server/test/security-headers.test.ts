import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageHeaders } from '../src/http/security-headers.js';
import { KEYS, startTestServer, type TestServer } from './helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

/** The CSP as directive → sources. */
function csp(res: Response): Map<string, string[]> {
  const header = res.headers.get('content-security-policy') ?? '';
  return new Map(header.split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map(([name, ...sources]) => [name!, sources]));
}

function expectPageHeaders(res: Response): void {
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  const policy = csp(res);
  expect(policy.get('default-src')).toEqual(["'none'"]);
  expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
  expect(policy.get('object-src')).toEqual(["'none'"]);
  expect(policy.get('script-src')).not.toContain("'unsafe-inline'");
  expect(policy.get('script-src')).not.toContain("'unsafe-eval'");
}

/** The page's one inline script runs only with the response's nonce. */
async function expectInlineScriptNonce(res: Response): Promise<void> {
  const html = await res.text();
  const nonce = /<script nonce="([^"]+)">/.exec(html)?.[1];
  expect(nonce).toMatch(/^[A-Za-z0-9+/=]{20,}$/);
  expect(csp(res).get('script-src')).toContain(`'nonce-${nonce}'`);
  expect(html.match(/<script>/g)).toBeNull();
}

describe('security headers on browser-rendered pages', () => {
  it('the dashboard: its own scripts and styles only, never framed', async () => {
    for (const path of ['/dashboard', '/dashboard/assets/dashboard.js']) {
      const res = await fetch(`${t.url}${path}`);
      expectPageHeaders(res);
      expect(csp(res).get('script-src')).toEqual(["'self'"]);
      expect(csp(res).get('style-src')).toEqual(["'self'"]);
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
  });

  it('the hosted checkout, opened or not: a nonce for its one inline script, never framed', async () => {
    const intent = (await t.request('POST', '/v1/funding-intents', { key: KEYS.alphaSecretTest, body: { amount: '5', asset: 'USDC' } })).body;
    const page = await fetch(intent.hosted_funding_url);
    expect(page.status).toBe(200);
    expectPageHeaders(page);
    expect(csp(page).get('connect-src')).toContain('https://horizon.stellar.org');
    await expectInlineScriptNonce(page);
    const again = await fetch(intent.hosted_funding_url);
    expect(csp(again).get('script-src')).not.toEqual(csp(page).get('script-src')); // a fresh nonce each response
    const bare = await fetch(`${t.url}/checkout/${intent.id}`);
    expect(bare.status).toBe(404);
    expectPageHeaders(bare);
    const script = await fetch(`${t.url}/checkout/fundkit-checkout.js`);
    expect(script.headers.get('x-content-type-options')).toBe('nosniff');
    // merchants' pages load the widget's script from the API's origin
    expect(script.headers.get('access-control-allow-origin')).toBe('*');
    expect(script.headers.get('cross-origin-resource-policy')).toBeNull();
  });

  it('the docs: a nonce for the reference\'s inline script, never framed', async () => {
    const res = await fetch(`${t.url}/docs`);
    expectPageHeaders(res);
    await expectInlineScriptNonce(res);
    expect(csp(res).get('connect-src')).toEqual(["'self'"]);
  });

  it('Strict-Transport-Security when the public URL is https; logos and the API allowed from it', async () => {
    // a server whose public URL is https would reach its own sandbox there: the pages' headers
    // are served here by the same middleware the app mounts, behind a public URL that changes
    let publicUrl = 'http://localhost:4010';
    const app = express();
    for (const kind of ['dashboard', 'checkout', 'docs'] as const) app.get(`/${kind}`, pageHeaders(kind, () => publicUrl), (_req, res) => void res.send('ok'));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect((await fetch(`${base}/dashboard`)).headers.get('strict-transport-security')).toBeNull();
      publicUrl = 'https://pay.example.com';
      for (const kind of ['dashboard', 'checkout', 'docs']) {
        const res = await fetch(`${base}/${kind}`);
        expect(res.headers.get('strict-transport-security'), kind).toBe('max-age=31536000');
        if (kind !== 'docs') expect(csp(res).get('img-src'), kind).toContain('https://pay.example.com');
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
