import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ConflictError, ConnectionError, TimeoutError, UserAbortError, ValidationError } from '../src/index.js';
import { apiError, BASE, client, useMsw } from './helpers.js';

const server = useMsw();

/** Answers each attempt with the next response of `script`, recording what each attempt sent. */
function scripted(method: 'get' | 'post', path: string, script: (() => Response)[]) {
  const attempts: { key: string | null; body: string; at: number }[] = [];
  server.use(http[method](`${BASE}${path}`, async ({ request }) => {
    attempts.push({ key: request.headers.get('idempotency-key'), body: await request.text(), at: Date.now() });
    const next = script[Math.min(attempts.length - 1, script.length - 1)]!;
    return next();
  }));
  return attempts;
}

const intent = () => HttpResponse.json({ id: 'fi_1', object: 'funding_intent' }, { status: 201 });
const fail = (status: number, code: string, headers: Record<string, string> = {}) => () =>
  HttpResponse.json(apiError(code), { status, headers: { 'retry-after': '0', ...headers } });

describe('retries', () => {
  it('retries 5xx and reuses one generated Idempotency-Key and the same body', async () => {
    const attempts = scripted('post', '/v1/funding-intents', [fail(503, 'PROTOCOL_UNAVAILABLE'), fail(500, 'INTERNAL_ERROR'), intent]);
    const created = await client().fundingIntents.create({ amount: '10', asset: 'USDC' });
    expect(created.id).toBe('fi_1');
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((a) => a.key)).size).toBe(1);
    expect(attempts[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(attempts.map((a) => a.body))).toEqual(new Set([JSON.stringify({ amount: '10', asset: 'USDC' })]));
  });

  it('a caller-supplied Idempotency-Key wins and is reused', async () => {
    const attempts = scripted('post', '/v1/funding-intents', [fail(502, 'INTERNAL_ERROR'), intent]);
    await client().fundingIntents.create({ amount: '10', asset: 'USDC' }, { idempotencyKey: 'order-4711' });
    expect(attempts.map((a) => a.key)).toEqual(['order-4711', 'order-4711']);
  });

  it('retries 429 and 408', async () => {
    const attempts = scripted('get', '/v1/funding-intents/fi_1', [fail(429, 'RATE_LIMITED'), fail(408, 'BAD_REQUEST'), intent]);
    await client().fundingIntents.retrieve('fi_1');
    expect(attempts).toHaveLength(3);
  });

  it('retries 409 IDEMPOTENCY_REQUEST_IN_PROGRESS, but not another 409', async () => {
    const inProgress = scripted('post', '/v1/funding-intents', [fail(409, 'IDEMPOTENCY_REQUEST_IN_PROGRESS'), intent]);
    await client().fundingIntents.create({ amount: '10', asset: 'USDC' });
    expect(inProgress).toHaveLength(2);
    const conflict = scripted('post', '/v1/funding-intents/fi_1/cancel', [fail(409, 'CONFLICT'), intent]);
    await expect(client().fundingIntents.cancel('fi_1')).rejects.toBeInstanceOf(ConflictError);
    expect(conflict).toHaveLength(1);
  });

  it('retries a 409 the server marks retryable (a "not yet"), with the same Idempotency-Key, after its Retry-After', async () => {
    const notYet = () => HttpResponse.json({ error: { ...apiError('CONFLICT').error, retryable: true } }, { status: 409, headers: { 'retry-after': '1' } });
    const attempts = scripted('post', '/v1/test_helpers/funding-intents/fi_1/payments', [notYet, () => HttpResponse.json({ object: 'test_payment' }, { status: 201 })]);
    await client().testHelpers.pay('fi_1', { amount: '5', asset: 'USDC' });
    expect(attempts).toHaveLength(2);
    expect(attempts[1]!.key).toBe(attempts[0]!.key);
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('never retries 400 or 422', async () => {
    for (const [status, code] of [[400, 'VALIDATION_ERROR'], [422, 'INVALID_AMOUNT']] as const) {
      const attempts = scripted('post', '/v1/funding-intents', [fail(status, code), intent]);
      await expect(client().fundingIntents.create({ amount: '-1', asset: 'USDC' })).rejects.toBeInstanceOf(ValidationError);
      expect(attempts).toHaveLength(1);
    }
  });

  it('stops after maxRetries and throws the last error', async () => {
    const attempts = scripted('get', '/v1/assets', [fail(503, 'PROTOCOL_UNAVAILABLE')]);
    await expect(client({ maxRetries: 1 }).assets.list()).rejects.toMatchObject({ status: 503, code: 'PROTOCOL_UNAVAILABLE' });
    expect(attempts).toHaveLength(2);
    const none = scripted('get', '/v1/assets', [fail(503, 'PROTOCOL_UNAVAILABLE')]);
    await expect(client().assets.list({ maxRetries: 0 })).rejects.toMatchObject({ status: 503 });
    expect(none).toHaveLength(1);
  });

  it('honours Retry-After in seconds', async () => {
    const attempts = scripted('get', '/v1/assets', [fail(429, 'RATE_LIMITED', { 'retry-after': '1' }), () => HttpResponse.json({ object: 'list', data: [], next_cursor: null })]);
    await client().assets.list();
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('honours Retry-After as an HTTP date', async () => {
    const date = () => new Date(Date.now() + 1500).toUTCString();
    const attempts = scripted('get', '/v1/assets', [() => HttpResponse.json(apiError('RATE_LIMITED'), { status: 429, headers: { 'retry-after': date() } }), () => HttpResponse.json({ object: 'list', data: [], next_cursor: null })]);
    await client().assets.list();
    // HTTP dates have one-second resolution, so the wait is between 0.5 and 1.5 s.
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(400);
  });

  it('does not start a retry that would end past the total deadline', async () => {
    const attempts = scripted('get', '/v1/assets', [fail(429, 'RATE_LIMITED', { 'retry-after': '30' })]);
    const started = Date.now();
    await expect(client({ totalTimeoutMs: 2000 }).assets.list()).rejects.toMatchObject({ status: 429, retryAfterSeconds: 30 });
    expect(attempts).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('backs off exponentially without a Retry-After', async () => {
    const attempts = scripted('get', '/v1/assets', [
      () => HttpResponse.json(apiError('INTERNAL_ERROR'), { status: 500 }),
      () => HttpResponse.json({ object: 'list', data: [], next_cursor: null }),
    ]);
    await client().assets.list();
    const waited = attempts[1]!.at - attempts[0]!.at;
    expect(waited).toBeGreaterThanOrEqual(350); // 0.5 s minus at most 25 % jitter
    expect(waited).toBeLessThan(1500);
  });

  it('retries network errors, then throws ConnectionError', async () => {
    let count = 0;
    server.use(http.get(`${BASE}/v1/assets`, () => { count++; return HttpResponse.error(); }));
    await expect(client({ maxRetries: 1 }).assets.list()).rejects.toBeInstanceOf(ConnectionError);
    expect(count).toBe(2);
  });

  it('does not retry a POST without an Idempotency-Key on a network error', async () => {
    let count = 0;
    server.use(http.post(`${BASE}/v1/auth/sign-in`, () => { count++; return HttpResponse.error(); }));
    await expect(client().auth.signIn({ email: 'a@example.com', password: 'x' })).rejects.toBeInstanceOf(ConnectionError);
    expect(count).toBe(1);
  });
});

describe('timeouts and abort', () => {
  const slow = (ms: number) => http.get(`${BASE}/v1/assets`, async () => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return HttpResponse.json({ object: 'list', data: [], next_cursor: null });
  });

  it('times out an attempt after timeoutMs and retries it', async () => {
    let count = 0;
    server.use(http.get(`${BASE}/v1/assets`, async () => {
      count++;
      if (count === 1) await new Promise((resolve) => setTimeout(resolve, 3000));
      return HttpResponse.json({ object: 'list', data: [], next_cursor: null });
    }));
    // room for the second attempt to answer in time on loaded cores (else a third is made)
    await expect(client({ timeoutMs: 500 }).assets.list()).resolves.toMatchObject({ object: 'list' });
    expect(count).toBe(2);
  });

  it('throws TimeoutError when every attempt times out', async () => {
    server.use(slow(1000));
    const started = Date.now();
    await expect(client({ timeoutMs: 100, maxRetries: 0 }).assets.list()).rejects.toBeInstanceOf(TimeoutError);
    expect(Date.now() - started).toBeLessThan(800);
  });

  it('the total deadline cuts the last attempt short', async () => {
    server.use(slow(2000));
    const started = Date.now();
    await expect(client({ timeoutMs: 1000, totalTimeoutMs: 300 }).assets.list()).rejects.toBeInstanceOf(TimeoutError);
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('the caller signal aborts with UserAbortError and no retry', async () => {
    server.use(slow(1000));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(client().assets.list({ signal: controller.signal })).rejects.toBeInstanceOf(UserAbortError);
  });
});
