import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, startTestServer, type TestServer } from './helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('request ids', () => {
  it('generates req_… ids', async () => {
    const res = await t.request('GET', '/v1/assets', { key: KEYS.alphaSecretTest });
    expect(res.headers['x-request-id']).toMatch(/^req_[0-9A-Z]{26}$/);
  });

  it('echoes a safe client id and replaces an unsafe one', async () => {
    const safe = await t.request('GET', '/v1/assets', { key: KEYS.alphaSecretTest, headers: { 'x-request-id': 'client.id:1-A_b' } });
    expect(safe.headers['x-request-id']).toBe('client.id:1-A_b');
    const unsafe = await t.request('GET', '/v1/assets', { key: KEYS.alphaSecretTest, headers: { 'x-request-id': 'bad id<script>' } });
    expect(unsafe.headers['x-request-id']).toMatch(/^req_/);
    const long = await t.request('GET', '/v1/assets', { key: KEYS.alphaSecretTest, headers: { 'x-request-id': 'a'.repeat(65) } });
    expect(long.headers['x-request-id']).toMatch(/^req_/);
  });

  it('puts the request id in error envelopes', async () => {
    const res = await t.request('GET', '/v1/funding-intents/fi_missing', { key: KEYS.alphaSecretTest, headers: { 'x-request-id': 'trace-42' } });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', requestId: 'trace-42', retryable: false });
  });
});

describe('bad input never yields a 500', () => {
  it('unknown route → 404 NOT_FOUND', async () => {
    const res = await t.request('GET', '/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  it('malformed JSON → 400 BAD_REQUEST', async () => {
    const res = await t.request('POST', '/v1/funding-intents', { key: KEYS.alphaSecretTest, body: '{"amount": ', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
    expect(res.text).not.toMatch(/at .*\.(ts|js):\d+/);
  });

  it('body over 1 MiB → 413 BAD_REQUEST', async () => {
    const big = JSON.stringify({ amount: '1', asset: 'USDC', reference: 'x'.repeat(1024 * 1024) });
    const res = await t.request('POST', '/v1/funding-intents', { key: KEYS.alphaSecretTest, body: big, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('BAD_REQUEST');
  });

  it('validation errors list every failing field', async () => {
    const res = await t.request('POST', '/v1/funding-intents', { key: KEYS.alphaSecretTest, body: { asset: 7, surprise: true } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    const paths = res.body.error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['body.amount', 'body.asset', 'body.surprise']));
  });

  it('query parameters are validated (limit bounds)', async () => {
    const res = await t.request('GET', '/v1/funding-intents?limit=101&status=NOPE', { key: KEYS.alphaSecretTest });
    expect(res.status).toBe(400);
    const paths = res.body.error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['query.limit', 'query.status']));
  });

  it('a body that is JSON but not an object is a validation error', async () => {
    const res = await t.request('POST', '/v1/funding-intents', { key: KEYS.alphaSecretTest, body: '[1,2]', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });
});
