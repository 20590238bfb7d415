import { run, value } from './helpers/raw-sql.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomKeypairProvisioner, type DepositAccountProvisioner } from '../src/records/deposit-accounts.js';
import { ApiError } from '../src/http/api-error.js';
import { KEYS, startTestServer, type TestServer } from './helpers/server.js';

/** A provisioner that can be slowed down or made to fail, to hold a request open. */
let delayMs = 0;
let failNext = false;
const controllable: DepositAccountProvisioner = async (request) => {
  if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
  if (failNext) {
    failNext = false;
    throw new Error('treasury unreachable');
  }
  return randomKeypairProvisioner(request);
};

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({
    provisionDepositAccount: controllable,
    // a stand-in for the checkout issue: reaching the handler is what this test needs
    extraRoutes: () => [{ operationId: 'createCheckoutSession', handler: () => { throw new ApiError('NOT_FOUND', 'no such funding intent'); } }],
  });
});
afterAll(() => t.close());

const intent = (key: string, idem: string, body: object = { amount: '10', asset: 'USDC' }) =>
  t.request('POST', '/v1/funding-intents', { key, body, headers: { 'idempotency-key': idem } });
const countIntents = async () => Number(await value(t.server.sql, 'SELECT COUNT(*) AS n FROM funding_intents'));

describe('idempotency', () => {
  it('replays the stored status and body for the same key and body', async () => {
    const before = await countIntents();
    const first = await intent(KEYS.alphaSecretTest, 'idem-replay-1');
    const second = await intent(KEYS.alphaSecretTest, 'idem-replay-1', { asset: 'USDC', amount: '10' });
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(await countIntents()).toBe(before + 1);
  });

  it('the same key with another body → 422 IDEMPOTENCY_KEY_REUSED', async () => {
    await intent(KEYS.alphaSecretTest, 'idem-reuse-1');
    const res = await intent(KEYS.alphaSecretTest, 'idem-reuse-1', { amount: '11', asset: 'USDC' });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', retryable: false });
  });

  it('the same key on another operation or path is a reuse too', async () => {
    const created = await intent(KEYS.alphaSecretTest, 'idem-cross-1');
    const res = await t.request('POST', `/v1/funding-intents/${created.body.id}/cancel`, { key: KEYS.alphaSecretTest, headers: { 'idempotency-key': 'idem-cross-1' } });
    expect(res.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('a request still running holds the key: 409 IDEMPOTENCY_REQUEST_IN_PROGRESS, retryable', async () => {
    delayMs = 400;
    try {
      const both = await Promise.all([intent(KEYS.alphaSecretTest, 'idem-race-1'), new Promise((r) => setTimeout(r, 50)).then(() => intent(KEYS.alphaSecretTest, 'idem-race-1'))]);
      // whichever claimed the key first runs (usually the first sent); the other is refused
      const [a, b] = both.sort((x, y) => x.status - y.status);
      expect(a!.status).toBe(201);
      expect(b!.status).toBe(409);
      expect(b!.body.error).toMatchObject({ code: 'IDEMPOTENCY_REQUEST_IN_PROGRESS', retryable: true });
    } finally {
      delayMs = 0;
    }
    const after = await intent(KEYS.alphaSecretTest, 'idem-race-1');
    expect(after.status).toBe(201);
    expect(after.headers['idempotent-replayed']).toBe('true');
  });

  it('keys are scoped per application and environment', async () => {
    const test = await intent(KEYS.alphaSecretTest, 'idem-scope-1');
    const live = await intent(KEYS.alphaSecretLive, 'idem-scope-1');
    const beta = await intent(KEYS.betaSecretTest, 'idem-scope-1', { amount: '10', asset: 'USDC', destination_address: 'GD6ROJBYLKQMOW3E7N4M2YBPUHMZD7PL65VRHRMO24BOVSBV5H3BQRSL' });
    expect(new Set([test.body.id, live.body.id, beta.body.id]).size).toBe(3);
  });

  it('a 5xx releases the key so a retry runs again; no stack trace leaks', async () => {
    failNext = true;
    const failed = await intent(KEYS.alphaSecretTest, 'idem-5xx-1');
    expect(failed.status).toBe(500);
    expect(failed.body.error).toMatchObject({ code: 'INTERNAL_ERROR', retryable: true });
    expect(failed.text).not.toContain('treasury unreachable');
    const retried = await intent(KEYS.alphaSecretTest, 'idem-5xx-1');
    expect(retried.status).toBe(201);
  });

  it('validates the key length from the parameter schema (1–255 here)', async () => {
    const res = await intent(KEYS.alphaSecretTest, 'k'.repeat(256));
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe('header.Idempotency-Key');
  });

  it('expired keys (24 h) are forgotten', async () => {
    await intent(KEYS.alphaSecretTest, 'idem-expire-1');
    await run(t.server.sql, "UPDATE idempotency_keys SET expires_at = '2000-01-01T00:00:00.000Z' WHERE key = 'idem-expire-1'");
    const res = await intent(KEYS.alphaSecretTest, 'idem-expire-1', { amount: '99', asset: 'USDC' });
    expect(res.status).toBe(201);
  });

  it('in the checkout family the key is required (8–200) and errors use the checkout envelope', async () => {
    const missing = await t.request('POST', '/v1/checkout_sessions', { key: KEYS.alphaSecretTest, body: { funding_intent_id: 'fi_1' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'idempotency_key_required', param: 'Idempotency-Key', retryable: false, docs_url: 'https://docs.fundkit.dev/errors/idempotency_key_required' });
    const short = await t.request('POST', '/v1/checkout_sessions', { key: KEYS.alphaSecretTest, body: { funding_intent_id: 'fi_1' }, headers: { 'idempotency-key': 'short' } });
    expect(short.status).toBe(400);
    expect(short.body.error).toMatchObject({ type: 'validation_error', code: 'validation_error', param: 'header.Idempotency-Key' });
    const ok = await t.request('POST', '/v1/checkout_sessions', { key: KEYS.alphaSecretTest, body: { funding_intent_id: 'fi_1' }, headers: { 'idempotency-key': 'long-enough-key' } });
    expect(ok.status).toBe(404);
    expect(ok.body.error).toMatchObject({ type: 'not_found_error', code: 'not_found' });
  });
});
