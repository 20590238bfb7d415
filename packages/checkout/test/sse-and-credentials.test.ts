import { afterEach, describe, expect, it } from 'vitest';
import { handoffLink, resolveCredentials, takeHandoffFromUrl } from '../src/credentials.js';
import { createSseParser } from '../src/sse.js';

describe('SSE parser', () => {
  it('parses events split across chunks and skips heartbeats', () => {
    const parse = createSseParser();
    expect(parse('retry: 2000\n\nevent: sta')).toEqual([]);
    expect(parse('tus\ndata: {"a":1}\n\n: heartbeat\n\nevent: status\r\ndata: {"a"')).toEqual([{ event: 'status', data: '{"a":1}' }]);
    expect(parse(':2}\r\n\r\n')).toEqual([{ event: 'status', data: '{"a":2}' }]);
  });
});

describe('handoff fragment', () => {
  afterEach(() => history.replaceState(null, '', '/'));

  it('takes the token out of the address bar and keeps other fragment parts', () => {
    history.replaceState(null, '', '/pay?x=1#fk_handoff=hot_abc&tab=2');
    expect(takeHandoffFromUrl()).toBe('hot_abc');
    expect(location.hash).toBe('#tab=2');
    expect(location.search).toBe('?x=1');
    expect(takeHandoffFromUrl()).toBeNull();
  });

  it('builds links that carry only the handoff token', () => {
    expect(handoffLink('https://shop.test/pay#old', 'hot_x')).toBe('https://shop.test/pay#fk_handoff=hot_x');
  });

  it('exchanges a handoff through the merchant resume function', async () => {
    const token = `h.${btoa(JSON.stringify({ sub: 'cst_1', fi: 'fi_1' }))}.s`;
    const creds = await resolveCredentials(
      { resume: async () => ({ id: 'cst_1', object: 'checkout_session', session_token: token, funding_intent_id: 'fi_1', expires_at: '', url: '' }) },
      'hot_1',
    );
    expect(creds).toEqual({ token, baseUrl: 'https://api.fundkit.dev', intentId: 'fi_1', sessionId: 'cst_1' });
    await expect(resolveCredentials({ resume: async () => { throw new Error('used'); } }, 'hot_1')).rejects.toMatchObject({ code: 'invalid_token' });
    await expect(resolveCredentials({}, null)).rejects.toMatchObject({ code: 'invalid_options' });
  });
});
