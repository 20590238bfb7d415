import { describe, expect, it } from 'vitest';
import { Api, isApiError } from '../src/api.js';

function recorder(status: number, body: unknown) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetcher = async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'x-request-id': 'req_1' } });
  };
  return { calls, fetcher: fetcher as typeof fetch };
}

describe('api.ts', () => {
  it('sends the account session as a bearer credential', async () => {
    const { calls, fetcher } = recorder(200, { object: 'list', data: [], next_cursor: null });
    await new Api('http://api', 'acs_abc', fetcher).listApplications();
    expect(calls[0]!.url).toBe('http://api/v1/applications?limit=100');
    expect((calls[0]!.init.headers as Record<string, string>).authorization).toBe('Bearer acs_abc');
  });

  it('turns the error envelope into an ApiError with its code, message and request id', async () => {
    const { fetcher } = recorder(401, { error: { code: 'INVALID_CREDENTIALS', message: 'wrong email or password', requestId: 'req_9' } });
    const error = await new Api('http://api', null, fetcher).signIn('a@b.c', 'x').catch((e: unknown) => e);
    expect(isApiError(error)).toBe(true);
    expect(error).toEqual({ status: 401, code: 'INVALID_CREDENTIALS', message: 'wrong email or password', requestId: 'req_9' });
  });
});
