/**
 * Bad input is a 400: a JSON body nested past its depth, or metadata past its own, is answered
 * 400 VALIDATION_ERROR naming the limit on every endpoint, never a 500. Through HTTP.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_BODY_DEPTH } from '../src/http/body.js';
import { MAX_METADATA_DEPTH } from '../src/http/validate.js';
import { KEYS, OPERATOR_KEY, startTestServer, type TestServer } from './helpers/server.js';

// a server's start takes seconds on a loaded machine
vi.setConfig({ hookTimeout: 120_000, testTimeout: 120_000 });

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const objects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const arrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

const send = (method: string, path: string, body: string, key?: string, headers: Record<string, string> = {}) =>
  t.request(method, path, { key, body, headers: { 'content-type': 'application/json', ...headers } });

function expectDepthRefused(res: { status: number; body: any }, limit: RegExp): void {
  expect(res.status).toBe(400);
  expect(res.body.error.code ?? res.body.error.type).toMatch(/VALIDATION_ERROR|validation_error/);
  expect(res.body.error.message).toMatch(limit);
}

const intent = (metadata: string) => `{"amount":"10","asset":"USDC","reference":"deep","metadata":${metadata}}`;

describe('metadata', () => {
  it(`nested 20,000 deep is a 400 naming the body's limit, objects or arrays`, async () => {
    for (const deep of [objects(20_000), `{"a":${arrays(20_000)}}`]) {
      const res = await send('POST', '/v1/funding-intents', intent(deep), KEYS.alphaSecretTest, { 'idempotency-key': `deep-${deep.length}-${deep[6]}` });
      expectDepthRefused(res, new RegExp(`more than ${MAX_BODY_DEPTH} levels deep`));
      expect(res.body.error.retryable).toBe(false);
    }
  });

  it(`past ${MAX_METADATA_DEPTH} levels is a 400 naming metadata's limit; at it, accepted`, async () => {
    const over = await send('POST', '/v1/funding-intents', intent(objects(MAX_METADATA_DEPTH + 1)), KEYS.alphaSecretTest, { 'idempotency-key': 'deep-meta-over' });
    expectDepthRefused(over, new RegExp(`more than ${MAX_METADATA_DEPTH} levels deep \\(the limit for metadata\\)`));
    expect(over.body.error.details).toEqual([{ path: 'body.metadata', message: expect.stringContaining(String(MAX_METADATA_DEPTH)) }]);
    const arraysOver = await send('POST', '/v1/funding-intents', intent(`{"a":${arrays(MAX_METADATA_DEPTH)}}`), KEYS.alphaSecretTest, { 'idempotency-key': 'deep-meta-arrays' });
    expectDepthRefused(arraysOver, /limit for metadata/);
    const at = await send('POST', '/v1/funding-intents', intent(objects(MAX_METADATA_DEPTH - 1)), KEYS.alphaSecretTest, { 'idempotency-key': 'deep-meta-at' });
    expect(at.status).toBe(201);
  });
});

describe('any JSON body', () => {
  const endpoints: Array<[string, string, string | undefined, Record<string, string>]> = [
    ['POST', '/v1/auth/sign-in', undefined, {}],
    ['POST', '/v1/auth/sign-up', undefined, {}],
    ['POST', '/v1/webhooks', KEYS.alphaSecretTest, {}],
    ['POST', '/v1/checkout_sessions', KEYS.alphaSecretTest, { 'idempotency-key': 'deep-checkout-1' }],
    ['PATCH', '/v1/platform/assets/EURC', OPERATOR_KEY, {}],
    ['POST', '/v1/funding-intents', KEYS.alphaSecretTest, { 'idempotency-key': 'deep-body-1' }],
  ];
  it.each(endpoints)('%s %s: nested past the limit, objects or arrays, is a 400 (never a 500)', async (method, path, key, headers) => {
    for (const body of [objects(20_000), arrays(300_000), `{"x":${arrays(MAX_BODY_DEPTH)}}`]) {
      expectDepthRefused(await send(method, path, body, key, headers), new RegExp(`more than ${MAX_BODY_DEPTH} levels deep`));
    }
  });

  it('counts brackets in strings as text, not nesting', async () => {
    const res = await send('POST', '/v1/funding-intents', intent(JSON.stringify({ note: '['.repeat(500) + '{\\"'.repeat(100) })), KEYS.alphaSecretTest, { 'idempotency-key': 'deep-strings' });
    expect(res.status).toBe(201);
  });
});
