import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { FAST_ENV, key } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  // a closed port: every Horizon call fails at once
  t = await startTestServer({ env: { ...FAST_ENV, FUNDKIT_STELLAR: 'testnet', FUNDKIT_HORIZON_URL: 'http://127.0.0.1:9' } });
});
afterAll(() => t.close());

describe('an unreachable network', () => {
  it('answers creates with 503 PROTOCOL_UNAVAILABLE (retryable), never a 500', async () => {
    const res = await t.request('POST', '/v1/funding-intents', { key, body: { amount: '25.00', asset: 'USDC' } });
    expect(res.status).toBe(503);
    expect(res.body.error).toMatchObject({ code: 'PROTOCOL_UNAVAILABLE', retryable: true });
  });
});
