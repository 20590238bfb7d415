import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  ApiError, AuthenticationError, ConflictError, FundkitError, IdempotencyError, NotFoundError, PermissionError,
  QuoteExpiredError, RateLimitError, ValidationError,
} from '../src/index.js';
import { apiError, BASE, client, useMsw } from './helpers.js';

const server = useMsw();

function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  server.use(http.all(`${BASE}/*`, () => (typeof body === 'string'
    ? new HttpResponse(body, { status, headers: { 'content-type': 'text/html', ...headers } })
    : HttpResponse.json(body as Record<string, unknown>, { status, headers: { 'x-request-id': 'req_header', ...headers } }))));
}

async function caught(promise: PromiseLike<unknown>): Promise<FundkitError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(FundkitError);
    return error as FundkitError;
  }
  throw new Error('expected a rejection');
}

describe('application envelope', () => {
  it('normalises code, message, status, requestId, retryable and details', async () => {
    const details = [{ path: 'body.amount', message: 'must be positive' }];
    answer(400, apiError('VALIDATION_ERROR', 'The request is invalid', { requestId: 'req_body', retryable: false, details }));
    const error = await caught(client().fundingIntents.create({ amount: '-1', asset: 'USDC' }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', status: 400, requestId: 'req_body', retryable: false, details, message: 'The request is invalid' });
    expect(error.headers?.get('x-request-id')).toBe('req_header');
  });

  it.each([
    [401, 'UNAUTHORIZED', AuthenticationError],
    [403, 'FORBIDDEN', PermissionError],
    [404, 'NOT_FOUND', NotFoundError],
    [409, 'CONFLICT', ConflictError],
    [422, 'INVALID_AMOUNT', ValidationError],
    [422, 'IDEMPOTENCY_KEY_REUSED', IdempotencyError],
    [400, 'IDEMPOTENCY_KEY_REQUIRED', IdempotencyError],
    [415, 'LOGO_FORMAT_UNSUPPORTED', ApiError],
  ] as const)('%i %s → %o', async (status, code, ErrorClass) => {
    answer(status, apiError(code));
    const error = await caught(client().fundingIntents.retrieve('fi_1', { maxRetries: 0 }));
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error.name).toBe(ErrorClass.name);
    expect(error.code).toBe(code);
  });

  it('429 is a RateLimitError with retryAfterSeconds', async () => {
    answer(429, apiError('RATE_LIMITED', 'slow down', { retryable: true }), { 'retry-after': '7' });
    const error = await caught(client().assets.list({ maxRetries: 0 }));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ retryAfterSeconds: 7, retryable: true });
  });

  it('5xx is an ApiError, and a non-JSON body still gives a usable error with the header request id', async () => {
    answer(502, '<html>bad gateway</html>', { 'x-request-id': 'req_proxy' });
    const error = await caught(client().assets.list({ maxRetries: 0 }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 502, code: 'INTERNAL_ERROR', requestId: 'req_proxy', retryable: true });
  });
});

describe('checkout envelope', () => {
  const checkoutError = (code: string, extra: Record<string, unknown> = {}) => ({
    error: { type: 'invalid_request_error', code, message: 'This quote has expired', request_id: 'req_co', retryable: false, docs_url: `https://docs.fundkit.dev/errors/${code}`, ...extra },
  });

  it('quote_expired → QuoteExpiredError (a ConflictError) with upper-case code, type and docsUrl', async () => {
    answer(409, checkoutError('quote_expired'));
    const error = await caught(client().quotes.accept('qt_1'));
    expect(error).toBeInstanceOf(QuoteExpiredError);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ code: 'QUOTE_EXPIRED', status: 409, requestId: 'req_co', type: 'invalid_request_error', retryable: false, docsUrl: 'https://docs.fundkit.dev/errors/quote_expired' });
  });

  it('validation_error keeps param; retry_after_seconds becomes retryAfterSeconds', async () => {
    answer(400, checkoutError('validation_error', { type: 'validation_error', param: 'funding_intent_id' }));
    const validation = await caught(client().checkoutSessions.create({ funding_intent_id: '' }));
    expect(validation).toBeInstanceOf(ValidationError);
    expect(validation).toMatchObject({ code: 'VALIDATION_ERROR', param: 'funding_intent_id', type: 'validation_error' });
    answer(429, checkoutError('rate_limited', { type: 'rate_limit_error', retryable: true, retry_after_seconds: 3 }));
    const limited = await caught(client().checkoutSessions.create({ funding_intent_id: 'fi_1' }, { maxRetries: 0 }));
    expect(limited).toBeInstanceOf(RateLimitError);
    expect(limited.retryAfterSeconds).toBe(3);
  });

  it('invalid_token on resume → AuthenticationError', async () => {
    answer(401, checkoutError('invalid_token', { type: 'authentication_error' }));
    const error = await caught(client().checkoutSessions.resume({ handoff_token: 'hot_used' }));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.code).toBe('INVALID_TOKEN');
  });
});

describe('withResponse', () => {
  it('gives data, the raw response and the request id', async () => {
    server.use(http.get(`${BASE}/v1/funding-intents/fi_1`, () => HttpResponse.json({ id: 'fi_1' }, { headers: { 'x-request-id': 'req_42' } })));
    const { data, response, requestId } = await client().fundingIntents.retrieve('fi_1').withResponse();
    expect(data.id).toBe('fi_1');
    expect(response.status).toBe(200);
    expect(requestId).toBe('req_42');
  });

  it('sends the bearer key, default headers and per-call authToken', async () => {
    const seen: (string | null)[][] = [];
    server.use(http.get(`${BASE}/v1/auth/session`, ({ request }) => {
      seen.push([request.headers.get('authorization'), request.headers.get('x-team')]);
      return HttpResponse.json({ id: 'acs_1' });
    }));
    const fk = client({ defaultHeaders: { 'X-Team': 'pay' } });
    await fk.auth.session();
    await fk.auth.session({ authToken: 'acs_token' });
    expect(seen).toEqual([['Bearer sk_test_0123456789abcdef', 'pay'], ['Bearer acs_token', 'pay']]);
  });
});
