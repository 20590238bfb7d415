/**
 * One truth across servers (issue 38, item 2): each server caches API keys and applications, yet a
 * revocation, a deactivation, a reactivation, a new settlement address and an exposure mark made
 * on one server hold on every other server of the database within a second (the cache generation
 * is read at most every 250 ms; resources/applications/freshness.ts). Two whole servers on one
 * database (a SQLite file, or one PostgreSQL database under FUNDKIT_TEST_ENGINE=postgres), every
 * step over HTTP. Server B always serves the credential once before the change, so what B answers
 * afterwards would come from its cache if nothing told it of the change.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_KEY, SETTLEMENT_ADDRESS, startTestServer, type TestServer } from '../helpers/server.js';
import { signedIn } from '../helpers/accounts.js';

/**
 * How long a poll waits for server B to see a change. The servers drop their caches within
 * 250 ms plus one read; the margin is for a loaded machine. Without the rule B never sees it, so
 * the poll fails whatever its length.
 */
const SEEN_WITHIN_MS = 5_000;
const POLL = { timeout: SEEN_WITHIN_MS, interval: 25 };

let a: TestServer;
let b: TestServer;
let session: string;
let appId: string;

async function newKey(): Promise<{ id: string; key: string }> {
  const res = await a.request('POST', `/v1/applications/${appId}/keys`, { key: session, body: { type: 'secret', environment: 'test' } });
  expect(res.status).toBe(201);
  return { id: res.body.id, key: res.body.key };
}

const assets = (server: TestServer, key: string) => server.request('GET', '/v1/assets', { key });
const createIntent = (server: TestServer, key: string) => server.request('POST', '/v1/funding-intents', { key, body: { amount: '10', asset: 'USDC' } });

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fundkit-one-truth-'));
  const env: Record<string, string> = {
    FUNDKIT_DB: join(dir, 'fundkit.db'), FUNDKIT_DATA_DIR: dir, FUNDKIT_MASTER_KEY: 'ab'.repeat(32), FUNDKIT_DEPOSIT_POOL_SIZE: '0',
  };
  if (process.env.FUNDKIT_TEST_ENGINE === 'postgres') env.FUNDKIT_DATABASE_URL = await (await import('../helpers/postgres.js')).freshPostgresDatabase('one-truth');
  a = await startTestServer({ env });
  b = await startTestServer({ env });
  session = await signedIn(a, 'owner@example.org');
  const app = await a.request('POST', '/v1/applications', { key: session, body: { name: 'Shop', settlement_address: SETTLEMENT_ADDRESS } });
  expect(app.status).toBe(201);
  appId = app.body.id;
  // two whole servers and a sign-up (scrypt): slow on a loaded machine
}, 60_000);
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

describe('one truth across servers', () => {
  it('a key revoked on one server is refused (401) by the other', async () => {
    const { id, key } = await newKey();
    expect((await assets(b, key)).status).toBe(200);
    expect((await a.request('POST', `/v1/applications/${appId}/keys/${id}/revoke`, { key: session })).status).toBe(200);
    await expect.poll(async () => (await assets(b, key)).status, POLL).toBe(401);
    expect((await assets(b, key)).body.error.code).toBe('UNAUTHORIZED');
  });

  it('an application deactivated on one server is refused (403 APPLICATION_INACTIVE) by the other, and serves again once reactivated', async () => {
    const { key } = await newKey();
    expect((await assets(b, key)).status).toBe(200);
    expect((await a.request('POST', `/v1/platform/applications/${appId}/deactivate`, { key: OPERATOR_KEY })).status).toBe(200);
    try {
      await expect.poll(async () => (await assets(b, key)).body.error?.code, POLL).toBe('APPLICATION_INACTIVE');
      expect((await assets(b, key)).status).toBe(403);
    } finally {
      expect((await a.request('POST', `/v1/platform/applications/${appId}/reactivate`, { key: OPERATOR_KEY })).status).toBe(200);
    }
    await expect.poll(async () => (await assets(b, key)).status, POLL).toBe(200);
  });

  it('an intent created on the other server right after a settlement address changes settles to the new address', async () => {
    const { key } = await newKey();
    // B has the application cached, and has just checked its cache: only a fresh read sees the change
    expect((await createIntent(b, key)).body.destination.address).toBe(SETTLEMENT_ADDRESS);
    const moved = Keypair.random().publicKey();
    expect((await a.request('PATCH', `/v1/applications/${appId}`, { key: session, body: { settlement_address: moved } })).status).toBe(200);
    const created = await createIntent(b, key);
    expect(created.status).toBe(201);
    expect(created.body.destination.address).toBe(moved);
    expect((await b.request('GET', `/v1/funding-intents/${created.body.id}`, { key })).body.destination.address).toBe(moved);
  });

  it('a key exposed on one server (sent from a browser) shows as exposed on the other', async () => {
    const { id, key } = await newKey();
    expect((await assets(b, key)).status).toBe(200);
    const exposed = await a.request('GET', '/v1/assets', { key, headers: { origin: 'https://shop.example' } });
    expect(exposed.status).toBe(403);
    const listed = await b.request('GET', `/v1/applications/${appId}/keys`, { key: session });
    expect(listed.body.data.find((k: { id: string }) => k.id === id).exposed_at).not.toBeNull();
  });
});
