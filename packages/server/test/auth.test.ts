import { rows } from './helpers/raw-sql.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signCheckoutToken } from '../src/http/checkout-token.js';
import { KEYS, OPERATOR_KEY, startTestServer, type TestServer } from './helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  // a checkout-family operation, so the checkout credential and envelope can be exercised now
  t = await startTestServer({
    extraRoutes: () => [
      { operationId: 'retrievePublicFundingIntent', handler: (_req, res) => void res.status(404).json({ error: { type: 'not_found_error', code: 'not_found', message: 'placeholder', request_id: String(res.getHeader('x-request-id')), retryable: false, docs_url: 'https://docs.fundkit.dev/errors/not_found' } }) },
    ],
  });
});
afterAll(() => t.close());

const intentBody = { amount: '1', asset: 'USDC' };

describe('application keys', () => {
  it('no credential, a malformed header or an unknown key → 401', async () => {
    expect((await t.request('GET', '/v1/funding-intents')).status).toBe(401);
    expect((await t.request('GET', '/v1/funding-intents', { headers: { authorization: 'Basic abc' } })).status).toBe(401);
    const unknown = await t.request('GET', '/v1/funding-intents', { key: 'sk_test_doesNotExist000000000000' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.code).toBe('UNAUTHORIZED');
  });

  it('a publishable key reads assets but cannot create intents', async () => {
    expect((await t.request('GET', '/v1/assets', { key: KEYS.alphaPublishableTest })).status).toBe(200);
    const res = await t.request('POST', '/v1/funding-intents', { key: KEYS.alphaPublishableTest, body: intentBody });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/publishable key/);
  });

  it('assets follow the key environment: test → sandbox issuers of testnet, live → pubnet', async () => {
    const test = await t.request('GET', '/v1/assets/usdc', { key: KEYS.alphaSecretTest });
    expect(test.body).toMatchObject({ id: 'USDC', stellar_network: 'sandbox', issuer: 'GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5', decimals: 7 });
    const live = await t.request('GET', '/v1/assets/EURC', { key: KEYS.alphaPublishableLive });
    expect(live.body).toMatchObject({ stellar_network: 'pubnet', issuer: 'GDHU6WRG4IEQXM5NZ4BMPKOXHW76MZM4Y2IEMFDVXBSDP6SJY4ITNPP2' });
    expect(live.body.contract).toMatch(/^C[A-Z2-7]{55}$/);
    const xlm = await t.request('GET', '/v1/assets/XLM', { key: KEYS.alphaSecretLive });
    expect(xlm.body).toMatchObject({ stellar_asset: 'native', issuer: null });
    expect((await t.request('GET', '/v1/assets/DOGE', { key: KEYS.alphaSecretTest })).status).toBe(404);
  });

  it('a secret key from a browser is refused and marked exposed', async () => {
    const t2 = await startTestServer();
    try {
      const res = await t2.request('GET', '/v1/assets', { key: KEYS.alphaSecretTest, headers: { origin: 'https://shop.example' } });
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ code: 'FORBIDDEN', message: 'secret keys are for servers; rotate this key' });
      const row = (await rows(t2.server.sql, "SELECT exposed_at FROM api_keys WHERE prefix = 'sk_test_' AND last4 = '0001' AND application_id = (SELECT id FROM applications WHERE name = 'Alpha')"))[0] as { exposed_at: string };
      expect(row.exposed_at).toMatch(/^\d{4}-/);
    } finally {
      await t2.close();
    }
  });

  it('publishable-key operations answer CORS, preflight included', async () => {
    const res = await t.request('GET', '/v1/assets', { key: KEYS.alphaPublishableTest, headers: { origin: 'https://shop.example' } });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const preflight = await fetch(`${t.url}/v1/assets`, { method: 'OPTIONS', headers: { origin: 'https://shop.example', 'access-control-request-method': 'GET' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Idempotency-Key/);
    const secretOnly = await t.request('GET', '/v1/funding-intents', { key: KEYS.alphaSecretTest });
    expect(secretOnly.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('operator and deactivation', () => {
  it('the operator key works only on platform operations', async () => {
    expect((await t.request('GET', '/v1/funding-intents', { key: OPERATOR_KEY })).status).toBe(401);
    const apps = await t.request('GET', '/v1/platform/applications', { key: OPERATOR_KEY });
    expect(apps.status).toBe(200);
    expect(apps.body.data.map((a: { name: string }) => a.name).sort()).toEqual(['Alpha', 'Beta']);
    expect((await t.request('GET', '/v1/platform/applications', { key: KEYS.alphaSecretTest })).status).toBe(401);
  });

  it('a deactivated application gets 403 APPLICATION_INACTIVE until reactivated', async () => {
    const apps = await t.request('GET', '/v1/platform/applications?status=ACTIVE', { key: OPERATOR_KEY });
    const beta = apps.body.data.find((a: { name: string }) => a.name === 'Beta');
    const off = await t.request('POST', `/v1/platform/applications/${beta.id}/deactivate`, { key: OPERATOR_KEY });
    expect(off.body.status).toBe('INACTIVE');
    const refused = await t.request('GET', '/v1/funding-intents', { key: KEYS.betaSecretTest });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('APPLICATION_INACTIVE');
    const inactive = await t.request('GET', '/v1/platform/applications?status=INACTIVE', { key: OPERATOR_KEY });
    expect(inactive.body.data.map((a: { id: string }) => a.id)).toEqual([beta.id]);
    await t.request('POST', `/v1/platform/applications/${beta.id}/reactivate`, { key: OPERATOR_KEY });
    expect((await t.request('GET', '/v1/funding-intents', { key: KEYS.betaSecretTest })).status).toBe(200);
    expect((await t.request('POST', '/v1/platform/applications/app_nope/deactivate', { key: OPERATOR_KEY })).status).toBe(404);
  });

  it('the operator disables an asset: new intents refuse it', async () => {
    const off = await t.request('PATCH', '/v1/platform/assets/EURC', { key: OPERATOR_KEY, body: { enabled: false } });
    expect(off.body.enabled).toBe(false);
    const res = await t.request('POST', '/v1/funding-intents', { key: KEYS.alphaSecretTest, body: { amount: '1', asset: 'EURC' } });
    expect(res.body.error.code).toBe('UNSUPPORTED_ASSET');
    await t.request('PATCH', '/v1/platform/assets/EURC', { key: OPERATOR_KEY, body: { enabled: true } });
    expect((await t.request('POST', '/v1/funding-intents', { key: KEYS.alphaSecretTest, body: { amount: '1', asset: 'EURC' } })).status).toBe(201);
  });
});

describe('checkout session tokens', () => {
  async function token(expiresInSeconds: number) {
    const app = (await rows(t.server.sql, "SELECT id FROM applications WHERE name = 'Alpha'"))[0] as { id: string };
    return signCheckoutToken(t.server.context.checkoutKey, { sessionId: 'cst_1', fundingIntentId: 'fi_1', applicationId: app.id, environment: 'test' }, Math.floor(Date.now() / 1000) + expiresInSeconds);
  }

  it('a valid token passes auth; the error envelope is the checkout form', async () => {
    const res = await t.request('GET', '/v1/public/funding-intents/fi_1', { key: await token(600) });
    expect(res.status).toBe(404);
    expect(res.body.error.type).toBe('not_found_error');
  });

  it('an expired token → 401 session_expired; a forged one → invalid_token', async () => {
    const expired = await t.request('GET', '/v1/public/funding-intents/fi_1', { key: await token(-10) });
    expect(expired.status).toBe(401);
    expect(expired.body.error).toMatchObject({ type: 'authentication_error', code: 'session_expired', retryable: false, docs_url: 'https://docs.fundkit.dev/errors/session_expired' });
    const valid = await token(600);
    const forged = `${valid.split('.').slice(0, 2).join('.')}.${'A'.repeat(43)}`;
    const bad = await t.request('GET', '/v1/public/funding-intents/fi_1', { key: forged });
    expect(bad.body.error.code).toBe('invalid_token');
    expect(bad.body.error.request_id).toBe(bad.headers['x-request-id']);
  });

  it('a checkout token is not an application key', async () => {
    expect((await t.request('GET', '/v1/funding-intents', { key: await token(600) })).status).toBe(401);
  });
});
