/**
 * Contract points a client written from the spec alone runs into (issue 13): bodyless operations
 * take an optional empty object, every error answer carries its envelope's fields, one HTTP status
 * per error code (DESIGN §7), and both funding-intent spellings are served.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, OPERATOR_KEY, startTestServer, type TestResponse, type TestServer } from './helpers/server.js';
import { startReceiver, type Receiver } from './webhooks/receiver.js';

const key = KEYS.alphaSecretTest;
let t: TestServer;
let r: Receiver;
beforeAll(async () => {
  t = await startTestServer();
  r = await startReceiver();
});
afterAll(async () => {
  await r.close();
  await t.close();
});

/** DESIGN §7, written out here so a drift in the server's own table fails this test. */
const DESIGN_STATUS: Record<string, number> = {
  BAD_REQUEST: 400, VALIDATION_ERROR: 400, IDEMPOTENCY_KEY_REQUIRED: 400,
  UNAUTHORIZED: 401, INVALID_CREDENTIALS: 401, INVALID_TOKEN: 401, SESSION_EXPIRED: 401,
  FORBIDDEN: 403, APPLICATION_INACTIVE: 403, EMAIL_NOT_VERIFIED: 403, NOT_FOUND: 404,
  CONFLICT: 409, IDEMPOTENCY_REQUEST_IN_PROGRESS: 409, EMAIL_ALREADY_REGISTERED: 409, QUOTE_EXPIRED: 409,
  QUOTE_NOT_SELECTABLE: 409, QUOTE_NOT_LOCKED: 409, EXECUTION_NOT_FAILED: 409, EXECUTION_NOT_RESUMABLE: 409,
  LOGO_FORMAT_UNSUPPORTED: 415, IDEMPOTENCY_KEY_REUSED: 422, INVALID_AMOUNT: 422, UNSUPPORTED_ASSET: 422,
  INVALID_DESTINATION: 422, INVALID_EXPIRATION: 422, INSUFFICIENT_INPUT: 422, NO_ROUTE_AVAILABLE: 422,
  PROTOCOL_REJECTED: 422, LOGO_DIMENSIONS_INVALID: 422, RATE_LIMITED: 429, INTERNAL_ERROR: 500,
  PROTOCOL_UNAVAILABLE: 503, ROUTE_UNAVAILABLE: 503, LOGO_STORAGE_UNAVAILABLE: 503,
};

/** A raw request: the body bytes and Content-Type exactly as given (the helper's request() still checks the contract). */
function send(method: string, path: string, body: string | undefined, headers: Record<string, string> = {}, bearer: string | null = key) {
  return t.request(method, path, {
    ...(bearer ? { key: bearer } : {}),
    ...(body !== undefined ? { body } : {}),
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
  });
}

const newIntent = async () => (await t.request('POST', '/v1/funding-intents', { key, body: { amount: '5', asset: 'USDC' } })).body;
const newEndpoint = async () => (await t.request('POST', '/v1/webhooks', { key, body: { url: r.url, events: ['payment.completed'] } })).body;

function expectValidationError(res: TestResponse, envelope: 'application' | 'checkout' = 'application') {
  expect(res.status).toBe(400);
  if (envelope === 'checkout') expect(res.body.error).toMatchObject({ type: 'validation_error', code: 'validation_error', request_id: res.headers['x-request-id'] });
  else expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', requestId: res.headers['x-request-id'], details: expect.arrayContaining([expect.objectContaining({ path: expect.stringMatching(/^body/) })]) });
}

describe('operations that take no body accept and declare an optional empty object', () => {
  it('every POST in the spec declares a request body (an optional empty object where it takes no input)', () => {
    const bodyless = t.server.context.spec.operations.filter((op) => op.method === 'post' && !op.body);
    expect(bodyless.map((op) => op.operationId)).toEqual([]);
    const empty = t.server.context.spec.operations.filter((op) => op.body?.schemaPointer?.includes('EmptyBody'));
    expect(empty.map((op) => op.operationId).sort()).toEqual([
      'acceptQuote', 'cancelFundingIntent', 'deactivateApplication', 'expireTestFundingIntent', 'expireWebhookPreviousSecret', 'failTestSettlement', 'reactivateApplication',
      'redeliverWebhook', 'resumeRouteExecution', 'retryRouteExecution', 'revokeApiKey', 'rotateWebhookSecret', 'sendTestWebhook', 'signOut',
    ]);
    for (const op of empty) expect(op.body?.required, op.operationId).toBe(false);
  });

  it.each([
    ['cancel', async () => `/v1/funding-intents/${(await newIntent()).id}/cancel`, 200],
    ['expire (test helper)', async () => `/v1/test_helpers/funding-intents/${(await newIntent()).id}/expire`, 200],
    ['fail_settlement (test helper)', async () => `/v1/test_helpers/funding-intents/${(await newIntent()).id}/fail_settlement`, 200],
    ['rotate-secret', async () => `/v1/webhooks/${(await newEndpoint()).id}/rotate-secret`, 200],
    ['webhook test', async () => `/v1/webhooks/${(await newEndpoint()).id}/test`, 201],
  ])('%s: no body and {} both work; a non-empty body is 400 VALIDATION_ERROR', async (_name, target, status) => {
    const none = await send('POST', await target(), undefined);
    expect(none.status).toBe(status);
    const empty = await send('POST', await target(), '{}');
    expect(empty.status).toBe(status);
    // the bare media type with only whitespace inside the object, as some clients send
    expect((await send('POST', await target(), ' { } ')).status).toBe(status);
    expectValidationError(await send('POST', await target(), '{"reason":"customer asked"}'));
  });

  it.each([
    ['retry a route execution', '/v1/route-executions/rex_unknown/retry', key],
    ['resume a route execution', '/v1/route-executions/rex_unknown/resume', key],
    ['redeliver', '/v1/webhooks/we_unknown/deliveries/wd_unknown/redeliver', key],
    ['deactivate (operator)', '/v1/platform/applications/app_unknown/deactivate', OPERATOR_KEY],
    ['reactivate (operator)', '/v1/platform/applications/app_unknown/reactivate', OPERATOR_KEY],
  ])('%s: {} reaches the operation (404 for an unknown id), a non-empty body is 400', async (_name, path, bearer) => {
    expect((await send('POST', path, '{}', {}, bearer)).status).toBe(404);
    expect((await send('POST', path, undefined, {}, bearer)).status).toBe(404);
    expectValidationError(await send('POST', path, '{"x":1}', {}, bearer));
  });

  it('quote accept (checkout family): {} is accepted, a non-empty body is 400 in the checkout envelope', async () => {
    const headers = { 'idempotency-key': `accept-${Date.now()}` };
    const empty = await send('POST', '/v1/quotes/qt_unknown/accept', '{}', headers);
    expect(empty.status).toBe(404);
    expect(empty.body.error).toMatchObject({ type: 'not_found_error', code: 'not_found' });
    expectValidationError(await send('POST', '/v1/quotes/qt_unknown/accept', '{"x":1}', { 'idempotency-key': `accept-x-${Date.now()}` }), 'checkout');
  });

  it('an Idempotency-Key replays whether the client sent {} or nothing', async () => {
    const path = `/v1/funding-intents/${(await newIntent()).id}/cancel`;
    const headers = { 'idempotency-key': `cancel-${Date.now()}` };
    const first = await send('POST', path, '{}', headers);
    const replay = await send('POST', path, undefined, headers);
    expect(first.status).toBe(200);
    expect(replay.status).toBe(200);
    expect(replay.text).toBe(first.text);
  });
});

describe('every error answer carries its envelope (request id included)', () => {
  it.each([
    ['an application route', 'POST', '/v1/funding-intents', {}],
    ['a bodyless application route', 'POST', '/v1/funding-intents/fi_unknown/cancel', {}],
    ['the underscore spelling', 'POST', '/v1/funding_intents', {}],
  ])('malformed JSON on %s: 400 BAD_REQUEST, application envelope', async (_name, method, path, headers) => {
    const res = await send(method, path, '{"amount": "5",', headers);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 'BAD_REQUEST', message: 'request body is not valid JSON', requestId: res.headers['x-request-id'], retryable: false } });
  });

  it.each([
    ['create a checkout session', '/v1/checkout_sessions'],
    ['quote accept', '/v1/quotes/qt_unknown/accept'],
  ])('malformed JSON on %s: 400 in the checkout envelope, request_id included', async (_name, path) => {
    const res = await send('POST', path, '{nope', { 'idempotency-key': 'malformed-json-1' });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      type: 'invalid_request_error', code: 'bad_request', message: 'request body is not valid JSON', request_id: res.headers['x-request-id'],
      retryable: false, docs_url: expect.stringMatching(/^https:\/\//),
    });
  });

  it('a client-sent X-Request-ID is the one in the envelope', async () => {
    const res = await send('POST', '/v1/funding-intents', '{', { 'x-request-id': 'client-trace-42' });
    expect(res.headers['x-request-id']).toBe('client-trace-42');
    expect(res.body.error.requestId).toBe('client-trace-42');
  });

  it('a body over 1 MiB is 413 BAD_REQUEST in either envelope', async () => {
    const big = JSON.stringify({ amount: '5', asset: 'USDC', reference: 'x', pad: 'y'.repeat(1024 * 1024) });
    const app = await send('POST', '/v1/funding-intents', big);
    expect(app.status).toBe(413);
    expect(app.body.error).toMatchObject({ code: 'BAD_REQUEST', requestId: app.headers['x-request-id'], retryable: false });
    const checkout = await send('POST', '/v1/checkout_sessions', big, { 'idempotency-key': 'too-large-1' });
    expect(checkout.status).toBe(413);
    expect(checkout.body.error).toMatchObject({ code: 'bad_request', request_id: checkout.headers['x-request-id'], retryable: false });
  });
});

describe('one HTTP status per error code (DESIGN §7)', () => {
  const webhook = (url: string, bearer: string = key) => t.request('POST', '/v1/webhooks', { key: bearer, body: { url, events: ['payment.completed'] } });

  it.each(([
    ['ftp://example.com/hooks', key],
    ['not a url', key],
    ['/relative/path', key],
    ['https://', key],
    ['javascript:alert(1)', key],
    ['https://user:secret@example.com/hooks', key],
    ['', key],
    [`https://example.com/${'a'.repeat(2100)}`, key],
    // a well-formed url whose host is a refused address is 422 (DESIGN §10): test/webhooks/targets.test.ts
  ] as const).map(([url, bearer]) => [url.length > 60 ? `${url.slice(0, 40)}… (${url.length} chars)` : url, url, bearer] as const))(
    'webhook url %j is 400 VALIDATION_ERROR on body.url, like every other invalid url', async (_label, url, bearer) => {
    const res = await webhook(url, bearer);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details).toEqual([expect.objectContaining({ path: 'body.url' })]);
  });

  it('the same invalid url is refused the same way on update', async () => {
    const endpoint = await newEndpoint();
    for (const url of ['ftp://example.com/hooks', 'not a url']) {
      const res = await t.request('PATCH', `/v1/webhooks/${endpoint.id}`, { key, body: { url } });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'body.url' }] });
    }
  });

  it('a table of bad inputs: each answer has the status DESIGN §7 gives its code', async () => {
    const intent = await newIntent();
    const cases: [string, () => Promise<TestResponse>, string][] = [
      ['amount not a decimal', () => t.request('POST', '/v1/funding-intents', { key, body: { amount: 'ten', asset: 'USDC' } }), 'INVALID_AMOUNT'],
      ['amount a number', () => t.request('POST', '/v1/funding-intents', { key, body: { amount: 10, asset: 'USDC' } }), 'VALIDATION_ERROR'],
      ['unknown asset', () => t.request('POST', '/v1/funding-intents', { key, body: { amount: '1', asset: 'DOGE' } }), 'UNSUPPORTED_ASSET'],
      ['bad destination', () => t.request('POST', '/v1/funding-intents', { key, body: { amount: '1', asset: 'USDC', destination_address: 'GNOPE' } }), 'INVALID_DESTINATION'],
      ['expiry too soon', () => t.request('POST', '/v1/funding-intents', { key, body: { amount: '1', asset: 'USDC', expires_at: new Date(Date.now() + 1000).toISOString() } }), 'INVALID_EXPIRATION'],
      ['unknown field', () => t.request('POST', '/v1/funding-intents', { key, body: { amount: '1', asset: 'USDC', colour: 'red' } }), 'VALIDATION_ERROR'],
      ['metadata over 8 KB', () => t.request('POST', '/v1/funding-intents', { key, body: { amount: '1', asset: 'USDC', metadata: { p: 'x'.repeat(9000) } } }), 'VALIDATION_ERROR'],
      ['limit out of range', () => t.request('GET', '/v1/funding-intents?limit=500', { key }), 'VALIDATION_ERROR'],
      ['no credentials', () => t.request('GET', '/v1/funding-intents'), 'UNAUTHORIZED'],
      ['live key on a test object', () => t.request('GET', `/v1/funding-intents/${intent.id}`, { key: KEYS.alphaSecretLive }), 'FORBIDDEN'],
      ['unknown intent', () => t.request('GET', '/v1/funding-intents/fi_nope', { key }), 'NOT_FOUND'],
      ['cancel an already cancelled intent', async () => {
        await t.request('POST', `/v1/funding-intents/${intent.id}/cancel`, { key });
        return t.request('POST', `/v1/funding-intents/${intent.id}/cancel`, { key });
      }, 'CONFLICT'],
      ['checkout session without Idempotency-Key', () => t.request('POST', '/v1/checkout_sessions', { key, body: { funding_intent_id: intent.id } }), 'IDEMPOTENCY_KEY_REQUIRED'],
      ['webhook with ftp url', () => webhook('ftp://example.com/hooks'), 'VALIDATION_ERROR'],
    ];
    for (const [name, run, code] of cases) {
      const res = await run();
      const got = String(res.body.error.code).toUpperCase();
      expect(got, name).toBe(code);
      expect(res.status, `${name}: ${code}`).toBe(DESIGN_STATUS[code]);
    }
  });
});

describe('both funding-intent spellings are served (DESIGN §2) and documented', () => {
  it('GET /v1/funding_intents/{id} is the same operation as /v1/funding-intents/{id}', async () => {
    const intent = await newIntent();
    const hyphen = await t.request('GET', `/v1/funding-intents/${intent.id}`, { key });
    const underscore = await t.request('GET', `/v1/funding_intents/${intent.id}`, { key });
    expect(underscore.status).toBe(200);
    expect(underscore.body).toEqual(hyphen.body);
    expect((await t.request('GET', '/v1/funding_intents/fi_nope', { key })).body.error.code).toBe('NOT_FOUND');
  });

  it('the spec says so where a client reads it (info and the funding-intent paths)', () => {
    const document = t.server.context.spec.document as { info: { description: string }; paths: Record<string, Record<string, { description?: string }>> };
    expect(document.info.description).toMatch(/`funding_intents`/);
    expect(document.info.description).toMatch(/GET \/v1\/funding_intents\/\{id\}/);
    expect(Object.keys(document.paths).filter((p) => p.startsWith('/v1/funding_intents/'))).toEqual(['/v1/funding_intents/{id}/options']);
  });
});
