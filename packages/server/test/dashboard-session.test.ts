/**
 * The dashboard's credential (issue 28): an account session plus Fundkit-Application naming one of
 * its account's applications reaches that application's operations, as its secret key would, in
 * the environment of Fundkit-Environment (default test). Every answer is status + error code, over
 * HTTP, on the engine of the run (the server-postgres project runs this file too).
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { KEYS, OPERATOR_KEY, SETTLEMENT_ADDRESS, startTestServer, type TestServer } from './helpers/server.js';
import { signedIn } from './helpers/accounts.js';

// the set-up signs up two accounts: four scrypt hashes at N=2^17, seconds each on a loaded machine
vi.setConfig({ hookTimeout: 120_000 });

let t: TestServer;
let session: string;
let otherSession: string;
let appId: string;
let otherAppId: string;
let secretTest: string;
let secretLive: string;

async function newApp(token: string, name: string): Promise<string> {
  const res = await t.request('POST', '/v1/applications', { key: token, body: { name, settlement_address: SETTLEMENT_ADDRESS } });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function newKey(token: string, app: string, environment: 'test' | 'live'): Promise<string> {
  const res = await t.request('POST', `/v1/applications/${app}/keys`, { key: token, body: { type: 'secret', environment } });
  expect(res.status).toBe(201);
  return res.body.key;
}

/** the session acting for `app` (header omitted when null) */
function as(app: string | null, environment?: string) {
  return {
    key: session,
    headers: { ...(app ? { 'Fundkit-Application': app } : {}), ...(environment ? { 'Fundkit-Environment': environment } : {}) },
  };
}

beforeAll(async () => {
  t = await startTestServer();
  session = await signedIn(t, 'owner@example.org');
  otherSession = await signedIn(t, 'other@example.org');
  appId = await newApp(session, 'Shop');
  otherAppId = await newApp(otherSession, 'Elsewhere');
  secretTest = await newKey(session, appId, 'test');
  secretLive = await newKey(session, appId, 'live');
});
afterAll(() => t.close());

/** one read of each application operation class */
const APPLICATION_READS = [
  '/v1/funding-intents',
  '/v1/payments',
  '/v1/refunds',
  '/v1/settlements',
  '/v1/ledger/balances',
  '/v1/ledger/entries',
  '/v1/events',
  '/v1/webhooks',
  '/v1/request_logs',
];

describe('an account session with Fundkit-Application', () => {
  it.each(APPLICATION_READS)('reaches GET %s of its application', async (path) => {
    const res = await t.request('GET', path, as(appId));
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('list');
  });

  it.each(APPLICATION_READS)('without the header, GET %s is 401 UNAUTHORIZED naming the header', async (path) => {
    const res = await t.request('GET', path, as(null));
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
    expect(res.body.error.message).toContain('Fundkit-Application');
  });

  it.each(APPLICATION_READS)("naming another account's application, GET %s is 403 FORBIDDEN", async (path) => {
    const res = await t.request('GET', path, as(otherAppId));
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
  });

  it('an unknown or malformed id gets the very answer another account\'s application gets', async () => {
    const other = await t.request('GET', '/v1/funding-intents', as(otherAppId));
    for (const id of ['app_doesnotexist000000000000', 'not an id', "app_'; drop"]) {
      const res = await t.request('GET', '/v1/funding-intents', as(id));
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ code: other.body.error.code, message: other.body.error.message });
    }
  });

  it('acts as a secret key of the application: both see the same intents, per environment', async () => {
    const created = await t.request('POST', '/v1/funding-intents', { ...as(appId), body: { amount: '12.50', asset: 'USDC', reference: 'dash-1' } });
    expect(created.status).toBe(201);
    const byKey = await t.request('GET', `/v1/funding-intents/${created.body.id}`, { key: secretTest });
    expect(byKey.status).toBe(200);
    expect(byKey.body.reference).toBe('dash-1');
    const viaKey = await t.request('POST', '/v1/funding-intents', { key: secretTest, body: { amount: '3', asset: 'USDC', reference: 'key-1' } });
    const listed = await t.request('GET', '/v1/funding-intents?reference=key-1', as(appId, 'test'));
    expect(listed.body.data.map((i: { id: string }) => i.id)).toEqual([viaKey.body.id]);
    // live is another environment: the test intent is not there, as for a live key
    const live = await t.request('GET', `/v1/funding-intents/${created.body.id}`, as(appId, 'live'));
    const liveKey = await t.request('GET', `/v1/funding-intents/${created.body.id}`, { key: secretLive });
    expect(live.status).toBe(liveKey.status);
    expect(live.body.error.code).toBe(liveKey.body.error.code);
  });

  it('Fundkit-Environment other than test or live is 400 VALIDATION_ERROR', async () => {
    const res = await t.request('GET', '/v1/funding-intents', as(appId, 'staging'));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('reaches the test helpers in test, and gets their 403 in live', async () => {
    const created = await t.request('POST', '/v1/funding-intents', { ...as(appId), body: { amount: '1', asset: 'USDC' } });
    const live = await t.request('POST', `/v1/test_helpers/funding-intents/${created.body.id}/expire`, as(appId, 'live'));
    expect(live.status).toBe(403);
    expect(live.body.error.code).toBe('FORBIDDEN');
  });

  it('creates a webhook endpoint and lists its deliveries', async () => {
    const endpoint = await t.request('POST', '/v1/webhooks', { ...as(appId), body: { url: 'https://example.org/hooks', events: ['payment.completed'] } });
    expect(endpoint.status).toBe(201);
    const deliveries = await t.request('GET', `/v1/webhooks/${endpoint.body.id}/deliveries`, as(appId));
    expect(deliveries.status).toBe(200);
    const byOther = await t.request('GET', `/v1/webhooks/${endpoint.body.id}`, { key: KEYS.betaSecretTest });
    expect(byOther.status).toBe(404);
  });

  it('a deactivated application of the account is 403 APPLICATION_INACTIVE', async () => {
    const doomed = await newApp(session, 'Doomed');
    expect((await t.request('POST', `/v1/platform/applications/${doomed}/deactivate`, { key: OPERATOR_KEY })).status).toBe(200);
    const res = await t.request('GET', '/v1/funding-intents', as(doomed));
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('APPLICATION_INACTIVE');
  });

  it('a signed-out session is 401 even with the header', async () => {
    const email = 'leaver@example.org';
    const token = await signedIn(t, email);
    const app = await newApp(token, 'Gone');
    expect((await t.request('POST', '/v1/auth/sign-out', { key: token })).status).toBe(204);
    const res = await t.request('GET', '/v1/funding-intents', { key: token, headers: { 'Fundkit-Application': app } });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
  });
});

describe('what each credential does not reach', () => {
  it('a session, header or not, never reaches operator operations', async () => {
    for (const options of [as(null), as(appId)]) {
      const res = await t.request('GET', '/v1/platform/applications', options);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHORIZED');
    }
  });

  it('an API key never reaches /v1/auth/* or /v1/applications*, header or not', async () => {
    for (const path of ['/v1/auth/session', '/v1/applications', `/v1/applications/${appId}/keys`]) {
      const res = await t.request('GET', path, { key: secretTest, headers: { 'Fundkit-Application': appId } });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHORIZED');
    }
  });

  it('an API key ignores Fundkit-Application: it acts for its own application', async () => {
    const res = await t.request('GET', '/v1/funding-intents?reference=dash-1', { key: KEYS.betaSecretTest, headers: { 'Fundkit-Application': appId } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });

  it('the operator key does not reach application operations', async () => {
    const res = await t.request('GET', '/v1/funding-intents', { key: OPERATOR_KEY, headers: { 'Fundkit-Application': appId } });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
  });

  it('the session alone still reaches its own operations', async () => {
    expect((await t.request('GET', '/v1/auth/session', as(appId))).status).toBe(200);
    expect((await t.request('GET', '/v1/applications', as(null))).status).toBe(200);
  });
});

describe('the verification link (DESIGN §9)', () => {
  it('is printed to stderr when the log level hides info, and opens the dashboard\'s verify page', async () => {
    const quiet = await startTestServer({ logger: pino({ level: 'warn' }, { write: () => undefined }) });
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect((await quiet.request('POST', '/v1/auth/sign-up', { body: { email: 'quiet@example.org', password: 'correct-horse-battery' } })).status).toBe(201);
      const line = write.mock.calls.map((c) => String(c[0])).find((l) => l.includes('quiet@example.org'));
      expect(line).toMatch(/^Fundkit: verify quiet@example\.org at http:\/\/\S+\/dashboard\/#\/verify\?token=emv_\S+\n$/);
      const token = /token=(emv_\S+)/.exec(line!)![1];
      write.mockRestore();
      expect((await quiet.request('POST', '/v1/auth/verify-email', { body: { token } })).status).toBe(200);
    } finally {
      write.mockRestore();
      await quiet.close();
    }
  });
});

describe('the sign-up answer on the sandbox', () => {
  it('carries the dashboard verify link, which verifies the account', async () => {
    const res = await t.request('POST', '/v1/auth/sign-up', { body: { email: 'sandboxed@example.org', password: 'correct-horse-battery' } });
    expect(res.status).toBe(201);
    expect(res.body.sandbox_verify_url).toMatch(/\/dashboard\/#\/verify\?token=emv_\S+$/);
    const token = /token=(emv_\S+)$/.exec(res.body.sandbox_verify_url)![1];
    expect((await t.request('POST', '/v1/auth/verify-email', { body: { token } })).body.email_verified).toBe(true);
  });
});
