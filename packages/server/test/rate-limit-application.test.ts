/**
 * Rate limits per application as well as per credential (issue 38, item 9): an account that mints
 * many keys still shares one bucket per application and environment, APPLICATION_RATE_FACTOR
 * times a credential's (here: rate 1/s, burst 2 per key, so 4/s, burst 8 per application).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPLICATION_RATE_FACTOR } from '../src/http/rate-limit.js';
import { KEYS, SETTLEMENT_ADDRESS, startTestServer, type TestServer } from './helpers/server.js';

const BURST = 2;
const MANY = Array.from({ length: 10 }, (_, i) => `sk_test_manyKeysOneApplication${String(i).padStart(6, '0')}`);
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({
    env: { FUNDKIT_RATE_LIMIT: '1', FUNDKIT_RATE_LIMIT_BURST: String(BURST) },
    bootstrap: { applications: [{ name: 'Many keys', secret_keys: MANY, settlement_address: SETTLEMENT_ADDRESS }, { name: 'Alpha', secret_keys: [KEYS.alphaSecretTest] }] },
  });
}, 60_000);
afterAll(() => t.close());

describe('rate limits per application', () => {
  it('many keys of one application share its bucket: 429 RATE_LIMITED before each key has used its own burst', async () => {
    // each key sends no more than its own burst: only the application's bucket can refuse
    const started = Date.now();
    const statuses = await Promise.all(MANY.flatMap((key) => Array.from({ length: BURST }, () => t.request('GET', '/v1/assets', { key }))));
    const seconds = (Date.now() - started) / 1000;
    const allowed = statuses.filter((r) => r.status === 200).length;
    const appBurst = BURST * APPLICATION_RATE_FACTOR;
    // the application's burst, plus what refilled while the requests ran
    expect(allowed).toBeLessThanOrEqual(appBurst + Math.ceil(seconds * APPLICATION_RATE_FACTOR));
    const refused = statuses.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]!.body.error.message).toContain('for this application');
    expect(Number(refused[0]!.headers['retry-after'])).toBeGreaterThan(0);
    // another application's key is not held back by it
    expect((await t.request('GET', '/v1/assets', { key: KEYS.alphaSecretTest })).status).toBe(200);
  });
});
