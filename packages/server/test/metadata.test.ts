import { verifyWebhook } from '@fundkit/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, startTestServer, type TestServer } from './helpers/server.js';
import { startReceiver, type Receiver } from './webhooks/receiver.js';

const key = KEYS.alphaSecretTest;
let t: TestServer;
let r: Receiver;
let secret: string;

beforeAll(async () => {
  t = await startTestServer();
  r = await startReceiver();
  const endpoint = await t.request('POST', '/v1/webhooks', { key, body: { url: r.url, events: ['payment.pending'] } });
  secret = endpoint.body.secret;
});
afterAll(async () => {
  await r.close();
  await t.close();
});

const create = (metadata: unknown) => t.request('POST', '/v1/funding-intents', { key, body: { amount: '10', asset: 'USDC', metadata } });

/** DESIGN §4: free-form JSON — nested objects, arrays, numbers, booleans and null. */
const RICH = {
  order_id: 'A-1001',
  cart: { items: 2, skus: ['SKU-1', 'SKU-2'], lines: [{ sku: 'SKU-1', qty: 1, price: 4.5 }, { sku: 'SKU-2', qty: 1, price: -0.25 }] },
  gift: false,
  vip: true,
  coupon: null,
  score: 1e-7,
  big: 9007199254740991,
  tags: [],
  empty: {},
  unicode: 'café ☕ 🚀',
};

describe('metadata is free-form JSON (DESIGN §4)', () => {
  it('round-trips exactly on create, retrieve, list and the webhook payload', async () => {
    const created = await create(RICH);
    expect(created.status).toBe(201);
    expect(created.body.metadata).toStrictEqual(RICH);

    const retrieved = await t.request('GET', `/v1/funding-intents/${created.body.id}`, { key });
    expect(retrieved.body.metadata).toStrictEqual(RICH);

    const list = await t.request('GET', '/v1/funding-intents?limit=5', { key });
    expect(list.body.data.find((i: { id: string }) => i.id === created.body.id).metadata).toStrictEqual(RICH);

    const [hit] = await r.waitFor(1);
    const event = await verifyWebhook(hit!.body, hit!.headers as Record<string, string>, secret);
    expect(event.type).toBe('payment.pending');
    expect((event.data as { metadata: unknown }).metadata).toStrictEqual(RICH);
  });

  it('accepts the limits themselves: 50 keys of 40 characters within 8 KB', async () => {
    const atLimit = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`${String(i).padStart(2, '0')}${'k'.repeat(38)}`, i]));
    const res = await create(atLimit);
    expect(res.status).toBe(201);
    expect(res.body.metadata).toStrictEqual(atLimit);
    // exactly 8192 bytes serialized: {"p":"…"} is 8 bytes of framing
    const exact = { p: 'x'.repeat(8192 - 8) };
    expect(Buffer.byteLength(JSON.stringify(exact))).toBe(8192);
    expect((await create(exact)).status).toBe(201);
  });

  it.each([
    ['51 top-level keys', Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])), 'body.metadata', /50 properties/],
    ['a 41-character key', { ['x'.repeat(41)]: 1 }, `body.metadata.${'x'.repeat(41)}`, /40 characters/],
    ['8193 bytes serialized', { p: 'x'.repeat(8192 - 7) }, 'body.metadata', /8192 bytes/],
    ['8 KB of multi-byte characters (counted in bytes)', { p: '€'.repeat(2731) }, 'body.metadata', /8192 bytes/],
    ['nesting that adds up past 8 KB', { a: { b: Array.from({ length: 400 }, () => ({ sku: 'SKU-12345678' })) } }, 'body.metadata', /8192 bytes/],
  ])('refuses %s with 400 VALIDATION_ERROR naming the limit', async (_name, metadata, path, limit) => {
    const res = await create(metadata);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.requestId).toMatch(/^req_/);
    const detail = res.body.error.details.find((d: { path: string }) => d.path === path);
    expect(detail?.message).toMatch(limit);
    expect(res.body.error.details).toHaveLength(1);
  });

  it.each([
    ['an array', ['a']],
    ['a string', 'order 1'],
    ['null', null],
  ])('refuses metadata that is %s (it is an object)', async (_name, metadata) => {
    const res = await create(metadata);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'body.metadata', message: 'must be object' }] });
  });
});
