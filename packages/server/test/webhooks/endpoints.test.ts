import { rows } from '../helpers/raw-sql.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const key = KEYS.alphaSecretTest;
const create = (body: unknown, k: string = key) => t.request('POST', '/v1/webhooks', { key: k, body });

describe('webhook endpoints', () => {
  it('creates an endpoint and shows its secret once', async () => {
    const res = await create({ url: 'https://shop.example.org/hooks', events: ['payment.completed', 'refund.completed'], description: 'Orders' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      object: 'webhook_endpoint', url: 'https://shop.example.org/hooks', events: ['payment.completed', 'refund.completed'],
      description: 'Orders', enabled: true, livemode: false, secret_rotation_expires_at: null,
    });
    expect(res.body.id).toMatch(/^we_/);
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{40,}$/);
    const again = await t.request('GET', `/v1/webhooks/${res.body.id}`, { key });
    expect(again.status).toBe(200);
    expect(again.body.secret).toBeUndefined();
  });

  it('stores the secret encrypted, never in clear', async () => {
    const res = await create({ url: 'https://a.example/h', events: ['payment.pending'] });
    const row = (await rows(t.server.sql, 'SELECT secret_encrypted FROM webhook_endpoints WHERE id = ?', res.body.id))[0] as { secret_encrypted: string };
    expect(row.secret_encrypted).not.toContain(res.body.secret);
    expect(row.secret_encrypted).not.toContain('whsec_');
  });

  it('lists newest first with pagination, only the caller\'s application and environment', async () => {
    const a = await create({ url: 'https://a.example/1', events: ['payment.pending'] });
    const b = await create({ url: 'https://a.example/2', events: ['payment.pending'] });
    const page = await t.request('GET', '/v1/webhooks?limit=1', { key });
    expect(page.body.data.map((e: { id: string }) => e.id)).toEqual([b.body.id]);
    const next = await t.request('GET', `/v1/webhooks?limit=1&cursor=${page.body.next_cursor}`, { key });
    expect(next.body.data[0].id).toBe(a.body.id);
    const beta = await t.request('GET', '/v1/webhooks', { key: KEYS.betaSecretTest });
    expect(beta.body.data).toEqual([]);
    const live = await t.request('GET', '/v1/webhooks', { key: KEYS.alphaSecretLive });
    expect(live.body.data).toEqual([]);
    expect((await t.request('GET', `/v1/webhooks/${a.body.id}`, { key: KEYS.betaSecretTest })).status).toBe(404);
    expect((await t.request('GET', `/v1/webhooks/${a.body.id}`, { key: KEYS.alphaSecretLive })).status).toBe(403);
  });

  it('updates url, events, description and enabled', async () => {
    const { body: endpoint } = await create({ url: 'https://a.example/u', events: ['payment.pending'], description: 'x' });
    const res = await t.request('PATCH', `/v1/webhooks/${endpoint.id}`, {
      key, body: { url: 'https://b.example/u', events: ['refund.created'], description: null, enabled: false },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ url: 'https://b.example/u', events: ['refund.created'], description: null, enabled: false });
    expect((await t.request('PATCH', `/v1/webhooks/${endpoint.id}`, { key, body: {} })).status).toBe(400);
  });

  it('deletes an endpoint', async () => {
    const { body: endpoint } = await create({ url: 'https://a.example/d', events: ['payment.pending'] });
    const res = await t.request('DELETE', `/v1/webhooks/${endpoint.id}`, { key });
    expect(res.body).toEqual({ id: endpoint.id, object: 'webhook_endpoint', deleted: true });
    expect((await t.request('GET', `/v1/webhooks/${endpoint.id}`, { key })).status).toBe(404);
    expect((await t.request('DELETE', `/v1/webhooks/${endpoint.id}`, { key })).status).toBe(404);
  });

  it('rotates the secret: a new one, the old one valid for 24 h', async () => {
    const { body: endpoint } = await create({ url: 'https://a.example/r', events: ['payment.pending'] });
    const before = Date.now();
    const res = await t.request('POST', `/v1/webhooks/${endpoint.id}/rotate-secret`, { key });
    expect(res.status).toBe(200);
    expect(res.body.secret).toMatch(/^whsec_/);
    expect(res.body.secret).not.toBe(endpoint.secret);
    const overlapEnds = Date.parse(res.body.secret_rotation_expires_at);
    expect(overlapEnds - before).toBeGreaterThanOrEqual(24 * 3_600_000 - 1000);
    expect(overlapEnds - before).toBeLessThanOrEqual(24 * 3_600_000 + 5000);
  });
});

describe('webhook URL rules', () => {
  it('accepts http and https, refuses other schemes and garbage with details on body.url', async () => {
    for (const url of ['ftp://a.example/h', 'not a url', 'https://user:pw@a.example/h', 'javascript:alert(1)']) {
      const res = await create({ url, events: ['payment.pending'] });
      expect(res.status, url).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details).toEqual([{ path: 'body.url', message: expect.any(String) }]);
    }
  });

  it('allows localhost only with test keys (on the sandbox; 422 naming the rule otherwise)', async () => {
    expect((await create({ url: 'http://localhost:3000/h', events: ['payment.pending'] })).status).toBe(201);
    expect((await create({ url: 'http://127.0.0.1:3000/h', events: ['payment.pending'] })).status).toBe(201);
    for (const url of ['http://localhost:3000/h', 'http://127.0.0.1/h', 'http://[::1]/h', 'http://10.0.0.5/h', 'http://api.localhost/h']) {
      const res = await create({ url, events: ['payment.pending'] }, KEYS.alphaSecretLive);
      expect(res.status, url).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'body.url', message: expect.stringMatching(/loopback|private/) }] });
    }
    expect((await create({ url: 'https://shop.example.org/h', events: ['payment.pending'] }, KEYS.alphaSecretLive)).status).toBe(201);
  });

  it('refuses a live endpoint moved to localhost by an update', async () => {
    const { body: endpoint } = await create({ url: 'https://shop.example.org/h', events: ['payment.pending'] }, KEYS.alphaSecretLive);
    const res = await t.request('PATCH', `/v1/webhooks/${endpoint.id}`, { key: KEYS.alphaSecretLive, body: { url: 'http://127.0.0.1:9/h' } });
    expect(res.status).toBe(422);
  });

  it('validates events against the event types', async () => {
    expect((await create({ url: 'https://a.example/h', events: ['payment.nope'] })).status).toBe(400);
    expect((await create({ url: 'https://a.example/h', events: [] })).status).toBe(400);
  });
});
