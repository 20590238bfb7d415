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

  it('an account session acting for an application sends Fundkit-Application and Fundkit-Environment', async () => {
    const seen: Headers[] = [];
    const fetch = vi.fn(async (input: Request | string | URL, init?: RequestInit) => {
      seen.push(new Headers(input instanceof Request ? input.headers : init?.headers));
      return Response.json({ object: 'list', data: [], next_cursor: null });
    });
    const fk = new Fundkit({ apiKey: 'acs_123', baseUrl: 'http://fundkit.test', fetch, application: 'app_1', applicationEnvironment: 'live' });
    await fk.fundingIntents.list();
    expect(seen[0]!.get('authorization')).toBe('Bearer acs_123');
    expect(seen[0]!.get('fundkit-application')).toBe('app_1');
    expect(seen[0]!.get('fundkit-environment')).toBe('live');
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

  it('a malformed base URL fails the call at once with a TypeError, unretried', async () => {
    const fetch = vi.fn(async (input: string | URL | Request, init?: RequestInit) => new Response(new Request(input, init).url));
    const fk = new Fundkit({ apiKey: 'sk_test_abc', baseUrl: 'http://exa mple.test', fetch });
    await expect(fk.assets.list()).rejects.toBeInstanceOf(TypeError);
    expect(fetch.mock.calls.length).toBeLessThanOrEqual(1);
  });

  it('middleware added to fk.raw gets a real Request for typed calls too', async () => {
    const seen: string[] = [];
    server.use(http.get('https://sandbox.api.fundkit.dev/v1/assets/USDC', ({ request }) =>
      HttpResponse.json({ id: 'USDC', mark: request.headers.get('x-mark') })));
    const fk = new Fundkit({ apiKey: 'sk_test_abc' });
    expect(await fk.assets.retrieve('USDC')).toMatchObject({ id: 'USDC', mark: null });
    fk.raw.use({ onRequest: ({ request }) => {
      seen.push(request instanceof Request ? request.method : 'not a Request');
      request.headers.set('x-mark', 'mw');
    } });
    expect(await fk.assets.retrieve('USDC')).toMatchObject({ id: 'USDC', mark: 'mw' });
    expect(await fk.assets.retrieve('USDC', { timeoutMs: 5_000 })).toMatchObject({ mark: 'mw' });
    expect(seen).toEqual(['GET', 'GET']);
  });
});
