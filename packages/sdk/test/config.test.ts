import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { Fundkit, FundkitError } from '../src/index.js';
import { useMsw } from './helpers.js';

const server = useMsw();

describe('configuration', () => {
  it('infers the environment and base URL from the key prefix', () => {
    expect(new Fundkit({ apiKey: 'sk_test_abc' })).toMatchObject({ environment: 'sandbox', baseUrl: 'https://sandbox.api.fundkit.dev' });
    expect(new Fundkit({ apiKey: 'sk_live_abc' })).toMatchObject({ environment: 'production', baseUrl: 'https://api.fundkit.dev' });
    expect(new Fundkit({ apiKey: 'pk_test_abc' }).environment).toBe('sandbox');
    expect(new Fundkit({ apiKey: 'sk_test_abc', baseUrl: 'http://localhost:4010/' }).baseUrl).toBe('http://localhost:4010');
  });

  it.each([
    [{ apiKey: 'sk_live_abc', environment: 'sandbox' as const }, /live key cannot be used against sandbox/],
    [{ apiKey: 'pk_live_abc', baseUrl: 'https://sandbox.api.fundkit.dev' }, /live key cannot be used against sandbox/],
    [{ apiKey: 'sk_test_abc', environment: 'production' as const }, /test key cannot be used against production/],
    [{ apiKey: 'sk_test_abc', baseUrl: 'https://api.fundkit.dev' }, /test key cannot be used against production/],
  ])('refuses %o before any request', (options, message) => {
    const fetch = vi.fn();
    expect(() => new Fundkit({ ...options, fetch })).toThrow(message);
    expect(() => new Fundkit({ ...options, fetch })).toThrow(FundkitError);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('lets other credentials (account sessions, operator keys) through with any environment', () => {
    expect(new Fundkit({ apiKey: 'acs_123', environment: 'sandbox' }).environment).toBe('sandbox');
  });

  it('uses an injected fetch and reports retries to the logger', async () => {
    let calls = 0;
    const fetch = vi.fn(async () => (++calls === 1
      ? Response.json({ error: { code: 'INTERNAL_ERROR', message: 'x', requestId: 'r' } }, { status: 500, headers: { 'retry-after': '0' } })
      : Response.json({ object: 'list', data: [], next_cursor: null })));
    const warn = vi.fn();
    const fk = new Fundkit({ apiKey: 'sk_test_abc', baseUrl: 'http://fundkit.test', fetch, logger: { warn } });
    await fk.assets.list();
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(warn).toHaveBeenCalledWith('fundkit: retrying request', expect.objectContaining({ retry: 1, status: 500 }));
  });

  it('fk.raw is the openapi-fetch client with the same credentials and retries', async () => {
    let calls = 0;
    server.use(http.get('https://sandbox.api.fundkit.dev/v1/assets/USDC', ({ request }) => {
      calls++;
      if (calls === 1) return HttpResponse.json({}, { status: 503, headers: { 'retry-after': '0' } });
      return HttpResponse.json({ id: 'USDC', auth: request.headers.get('authorization') });
    }));
    const { data } = await new Fundkit({ apiKey: 'sk_test_abc' }).raw.GET('/v1/assets/{id}', { params: { path: { id: 'USDC' } } });
    expect(data).toMatchObject({ id: 'USDC', auth: 'Bearer sk_test_abc' });
    expect(calls).toBe(2);
  });
});
