import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatBanner } from '../src/banner.js';
import { KEYS, startTestServer, type TestServer } from './helpers/server.js';

let t: TestServer;
beforeAll(async () => void (t = await startTestServer()));
afterAll(() => t.close());

describe('/docs and /openapi.yaml', () => {
  it('serves the contract and a reference page with the bundled Scalar build, pointed at this server', async () => {
    const spec = await fetch(`${t.url}/openapi.yaml`);
    expect(spec.headers.get('content-type')).toContain('yaml');
    expect(await spec.text()).toMatch(/^openapi: 3\.1/);
    const page = await (await fetch(`${t.url}/docs`)).text();
    expect(page).toContain('<script src="/docs/assets/standalone.js">');
    expect(page).toContain(`"servers":[{"url":"${t.url}"`);
    expect(page).not.toContain('cdn.');
    const script = await fetch(`${t.url}/docs/assets/standalone.js`);
    expect(script.status).toBe(200);
    expect((await script.arrayBuffer()).byteLength).toBeGreaterThan(1_000_000);
  });

  it('the try-it proxy forwards a secret test key without Origin, so it is not marked exposed', async () => {
    const target = encodeURIComponent(`${t.url}/v1/funding-intents`);
    const res = await fetch(`${t.url}/docs/proxy?scalar_url=${target}`, {
      method: 'POST',
      headers: { origin: t.url, authorization: `Bearer ${KEYS.alphaSecretTest}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: '5.00', asset: 'USDC' }),
    });
    expect(res.status).toBe(201);
    expect((await res.json()).object).toBe('funding_intent');
  });

  it('refuses live keys, other hosts and other origins', async () => {
    const own = encodeURIComponent(`${t.url}/v1/funding-intents`);
    const live = await fetch(`${t.url}/docs/proxy?scalar_url=${own}`, { headers: { authorization: `Bearer ${KEYS.alphaSecretLive}` } });
    expect(live.status).toBe(403);
    // the application error envelope, its request id the X-Request-ID header
    const body = await live.json();
    expect(body.error).toMatchObject({ code: 'FORBIDDEN', retryable: false, requestId: live.headers.get('x-request-id') });
    expect(body.error.message).toMatch(/live keys/);
    const elsewhere = await fetch(`${t.url}/docs/proxy?scalar_url=${encodeURIComponent('http://example.com/v1/x')}`);
    expect(elsewhere.status).toBe(403);
    const foreign = await fetch(`${t.url}/docs/proxy?scalar_url=${own}`, { headers: { origin: 'http://evil.test', authorization: `Bearer ${KEYS.alphaSecretTest}` } });
    expect(foreign.status).toBe(403);
  });
});

describe('the start-up banner', () => {
  it('names the API, the docs, the demo checkout, the wallet settings, the keys and the next commands', () => {
    const text = formatBanner({
      url: 'http://localhost:4010',
      keys: { secretKey: 'sk_test_x', publishableKey: 'pk_test_y', path: '.fundkit/sandbox-keys.json' },
      demo: { id: 'fi_1', url: 'http://localhost:4010/pay/fi_1' },
      dashboard: { email: 'developer+abc@fundkit.test', password: 'pw_123' },
    });
    expect(text).toContain('Dashboard        http://localhost:4010/dashboard\n');
    expect(text).toContain('Dashboard login  developer+abc@fundkit.test / pw_123\n');
    for (const part of ['http://localhost:4010/v1', 'http://localhost:4010/docs', 'http://localhost:4010/pay/fi_1', 'sk_test_x', 'pk_test_y', 'pnpm fundkit pay fi_1 --amount 25']) expect(text).toContain(part);
    expect(text).toContain('Horizon          http://localhost:4010/sandbox/horizon\n');
    expect(text).toContain('Passphrase       Standalone Network ; February 2017\n');
    expect(text).toContain('Friendbot        http://localhost:4010/sandbox/friendbot?addr=G…');
  });
});
