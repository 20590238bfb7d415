import type { AddressInfo } from 'node:net';
import express from 'express';
import { http, HttpResponse, passthrough } from 'msw';
import { describe, expect, it } from 'vitest';
import { createPkcePair, createResumeHandler, pkceChallenge } from '../src/index.js';
import { BASE, client, TEST_KEY, useMsw } from './helpers.js';

const server = useMsw();

const session = {
  id: 'cst_1', object: 'checkout_session', session_token: 'eyJ.session.token', funding_intent_id: 'fi_1',
  expires_at: '2030-01-01T00:00:00.000Z', url: 'https://checkout.fundkit.dev/fi_1',
};

/** The upstream resume endpoint: records what the SDK sent, answers `reply`. */
function upstream(reply: () => Response = () => HttpResponse.json(session)) {
  const seen: { auth: string | null; key: string | null; body: unknown }[] = [];
  server.use(http.post(`${BASE}/v1/checkout_sessions/resume`, async ({ request }) => {
    seen.push({ auth: request.headers.get('authorization'), key: request.headers.get('idempotency-key'), body: await request.json() });
    return reply();
  }));
  return seen;
}

const post = (body: unknown) => new Request('https://merchant.example/checkout/resume', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

describe('createPkcePair', () => {
  it('makes an RFC 7636 S256 pair', async () => {
    const pair = await createPkcePair();
    expect(pair.method).toBe('S256');
    expect(pair.codeVerifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(pair.codeChallenge).toBe(await pkceChallenge(pair.codeVerifier));
    // RFC 7636 appendix B vector
    expect(await pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('handoff sends the challenge with method S256 and an Idempotency-Key', async () => {
    let seen: { body: unknown; key: string | null } | undefined;
    server.use(http.post(`${BASE}/v1/checkout_sessions/cst_1/handoff`, async ({ request }) => {
      seen = { body: await request.json(), key: request.headers.get('idempotency-key') };
      return HttpResponse.json({ handoff_token: 'hot_1' }, { status: 201 });
    }));
    const pair = await createPkcePair();
    const { handoff_token } = await client().checkoutSessions.handoff('cst_1', { code_challenge: pair.codeChallenge });
    expect(handoff_token).toBe('hot_1');
    expect(seen?.body).toEqual({ code_challenge: pair.codeChallenge, code_challenge_method: 'S256' });
    expect(seen?.key?.length).toBeGreaterThanOrEqual(8);
  });
});

describe('createResumeHandler (Fetch)', () => {
  it('exchanges the token server-side and returns the session without the secret', async () => {
    const seen = upstream();
    const handler = createResumeHandler(client());
    const response = await handler(post({ handoff_token: 'hot_1', code_verifier: 'v'.repeat(43) }));
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual(session);
    expect(text).not.toContain(TEST_KEY);
    expect(seen[0]).toMatchObject({ auth: `Bearer ${TEST_KEY}`, body: { handoff_token: 'hot_1', code_verifier: 'v'.repeat(43) } });
    expect(seen[0]!.key!.length).toBeGreaterThanOrEqual(8);
  });

  it('passes the upstream error status with a JSON body', async () => {
    upstream(() => HttpResponse.json({ error: { type: 'authentication_error', code: 'invalid_token', message: 'Handoff token already used', request_id: 'req_9', retryable: false, docs_url: 'x' } }, { status: 401 }));
    const response = await createResumeHandler(client())(post({ handoff_token: 'hot_used' }));
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: { code: 'invalid_token', message: 'Handoff token already used', request_id: 'req_9' } });
  });

  it('rejects a missing token with 400 without calling upstream, and non-POST with 405', async () => {
    const seen = upstream();
    const handler = createResumeHandler(client());
    expect((await handler(post({}))).status).toBe(400);
    expect((await handler(new Request('https://merchant.example/r'))).status).toBe(405);
    expect(seen).toHaveLength(0);
  });

  it('derives the Idempotency-Key from the token when asked, so a browser retry replays', async () => {
    const seen = upstream();
    const handler = createResumeHandler(client(), { idempotencyKey: true });
    await handler(post({ handoff_token: 'hot_1' }));
    await handler(post({ handoff_token: 'hot_1' }));
    expect(seen.map((s) => s.key)).toEqual(['resume:hot_1', 'resume:hot_1']);
  });
});

describe('createResumeHandler (Express)', () => {
  it('works as Express middleware with and without express.json()', async () => {
    upstream();
    const app = express();
    const handler = createResumeHandler(client());
    app.post('/parsed', express.json(), handler.express);
    app.post('/raw', handler.express);
    const listener = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => listener.once('listening', resolve));
    const origin = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
    server.use(http.all(`${origin}/*`, () => passthrough()));
    try {
      for (const path of ['/parsed', '/raw']) {
        const response = await fetch(origin + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ handoff_token: 'hot_1' }) });
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual(session);
      }
    } finally {
      listener.close();
    }
  });
});

describe('statusStream', () => {
  it('yields each status event of the SSE stream', async () => {
    server.use(http.get(`${BASE}/v1/public/funding-intents/fi_1/status`, ({ request }) => {
      expect(request.headers.get('accept')).toBe('text/event-stream');
      const body = ': hello\n\nevent: status\ndata: {"id":"fi_1","status":"AWAITING_PAYMENT"}\n\nevent: status\ndata: {"id":"fi_1",\ndata: "status":"CREDITED"}\n\n';
      return new HttpResponse(body, { headers: { 'content-type': 'text/event-stream' } });
    }));
    const statuses: string[] = [];
    for await (const view of client().checkoutSessions.statusStream('fi_1', { authToken: 'pk_test_abc' })) statuses.push(view.status);
    expect(statuses).toEqual(['AWAITING_PAYMENT', 'CREDITED']);
  });
});
