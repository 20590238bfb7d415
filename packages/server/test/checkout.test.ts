import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, startTestServer, type TestServer } from './helpers/server.js';

let t: TestServer;
let n = 0;
const key = () => `checkout_test_${n++}_key`;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

async function intent(secret: string = KEYS.alphaSecretTest): Promise<string> {
  return (await t.request('POST', '/v1/funding-intents', { key: secret, body: { amount: '25', asset: 'USDC' } })).body.id;
}

async function session(intentId: string) {
  const res = await t.request('POST', '/v1/checkout_sessions', { key: KEYS.alphaSecretTest, body: { funding_intent_id: intentId }, headers: { 'idempotency-key': key() } });
  expect(res.status).toBe(201);
  return res.body;
}

describe('checkout sessions', () => {
  it('creates a session bound to an intent of the application; others are 404, no key is 400', async () => {
    const id = await intent();
    const s = await session(id);
    expect(s).toMatchObject({ object: 'checkout_session', funding_intent_id: id, url: expect.stringContaining(`/checkout/${id}?k=`) });
    expect(s.id).toMatch(/^cst_/);
    expect(Date.parse(s.expires_at) - Date.now()).toBeLessThanOrEqual(30 * 60_000);
    const other = await t.request('POST', '/v1/checkout_sessions', { key: KEYS.betaSecretTest, body: { funding_intent_id: id }, headers: { 'idempotency-key': key() } });
    expect(other.status).toBe(404);
    const noKey = await t.request('POST', '/v1/checkout_sessions', { key: KEYS.alphaSecretTest, body: { funding_intent_id: id } });
    expect(noKey.body.error.code).toBe('idempotency_key_required');
  });

  it('lets the session read only its own intent; the publishable key reads any of its application', async () => {
    const id = await intent();
    const s = await session(id);
    const view = await t.request('GET', `/v1/public/funding-intents/${id}`, { key: s.session_token });
    expect(view.body).toMatchObject({ object: 'public_funding_intent', id, remaining_amount: '25.0000000', application: { name: 'Alpha' } });
    expect(view.body).not.toHaveProperty('metadata');
    const another = await intent();
    expect((await t.request('GET', `/v1/public/funding-intents/${another}`, { key: s.session_token })).status).toBe(403);
    const byPk = await t.request('GET', `/v1/public/funding-intents/${another}`, { key: KEYS.alphaPublishableTest, headers: { origin: 'https://shop.test' } });
    expect(byPk.status).toBe(200);
    expect(byPk.headers['access-control-allow-origin']).toBe('*');
  });

  it('answers the status operation as JSON without an event-stream Accept, and as SSE with it', async () => {
    const id = await intent();
    const s = await session(id);
    expect((await t.request('GET', `/v1/public/funding-intents/${id}/status`, { key: s.session_token })).body.status).toBe('AWAITING_PAYMENT');
    const abort = new AbortController();
    const res = await fetch(`${t.url}/v1/public/funding-intents/${id}/status`, { headers: { authorization: `Bearer ${s.session_token}`, accept: 'text/event-stream' }, signal: abort.signal });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('\n\nevent: status')) text += new TextDecoder().decode((await reader.read()).value);
    abort.abort();
    expect(text).toContain('event: status\ndata: {');
  });
});

describe('handoff and resume', () => {
  const verifier = 'v'.repeat(43) + '-._~';
  const challenge = createHash('sha256').update(verifier).digest('base64url');

  async function handoff(s: { id: string; session_token: string }, body: object = {}) {
    const res = await t.request('POST', `/v1/checkout_sessions/${s.id}/handoff`, { key: s.session_token, body, headers: { 'idempotency-key': key() } });
    expect(res.status).toBe(201);
    return res.body.handoff_token as string;
  }
  const resume = (body: object, idem = key()) =>
    t.request('POST', '/v1/checkout_sessions/resume', { key: KEYS.alphaSecretTest, body, headers: { 'idempotency-key': idem } });

  it('exchanges once; a replay with the same key returns the original; a new exchange is 401', async () => {
    const s = await session(await intent());
    const token = await handoff(s);
    const idem = key();
    const first = await resume({ handoff_token: token }, idem);
    expect(first.status).toBe(200);
    expect(first.body.id).toBe(s.id);
    const replay = await resume({ handoff_token: token }, idem);
    expect(replay.body).toEqual(first.body);
    const again = await resume({ handoff_token: token });
    expect(again.status).toBe(401);
    expect(again.body.error.code).toBe('invalid_token');
  });

  it('requires the PKCE verifier when a challenge was given; a wrong one burns the token', async () => {
    const s = await session(await intent());
    const ok = await handoff(s, { code_challenge: challenge, code_challenge_method: 'S256' });
    expect((await resume({ handoff_token: ok, code_verifier: verifier })).status).toBe(200);
    const wrong = await handoff(s, { code_challenge: challenge });
    expect((await resume({ handoff_token: wrong, code_verifier: 'w'.repeat(43) })).status).toBe(401);
    expect((await resume({ handoff_token: wrong, code_verifier: verifier })).status).toBe(401);
  });

  it('refuses another session token and another application', async () => {
    const a = await session(await intent());
    const b = await session(await intent());
    const res = await t.request('POST', `/v1/checkout_sessions/${a.id}/handoff`, { key: b.session_token, body: {}, headers: { 'idempotency-key': key() } });
    expect(res.status).toBe(403);
    const token = await handoff(a);
    const beta = await t.request('POST', '/v1/checkout_sessions/resume', { key: KEYS.betaSecretTest, body: { handoff_token: token }, headers: { 'idempotency-key': key() } });
    expect(beta.status).toBe(401);
  });
});

describe('hosted page', () => {
  it('serves the page for the intent\'s link and 404 for an unknown intent', async () => {
    const created = (await t.request('POST', '/v1/funding-intents', { key: KEYS.alphaSecretTest, body: { amount: '25', asset: 'USDC' } })).body;
    const page = await fetch(created.hosted_funding_url);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(await page.text()).toContain('FundkitCheckout.mount');
    expect((await fetch(`${t.url}/checkout/fi_unknown?k=${new URL(created.hosted_funding_url).searchParams.get('k')}`)).status).toBe(404);
  });
});
