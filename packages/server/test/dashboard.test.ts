import { rows } from './helpers/raw-sql.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, SETTLEMENT_ADDRESS, startTestServer, type TestServer } from './helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

/** Just enough PNG for image-size: signature and IHDR. */
function png(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'latin1');
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  ihdr.writeUInt8(8, 16);
  ihdr.writeUInt8(6, 17);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr, Buffer.alloc(16)]);
}

function gif(width: number, height: number): Buffer {
  const head = Buffer.alloc(13);
  head.write('GIF89a', 0, 'latin1');
  head.writeUInt16LE(width, 6);
  head.writeUInt16LE(height, 8);
  return head;
}

async function signedIn(server: TestServer, email: string): Promise<string> {
  const password = 'correct-horse-battery';
  const up = await server.request('POST', '/v1/auth/sign-up', { body: { email, password } });
  expect(up.status).toBe(201);
  const line = server.logs.find((l) => l.email === email && typeof l.verify_url === 'string');
  const token = new URL(String(line!.verify_url)).searchParams.get('token');
  expect((await server.request('POST', '/v1/auth/verify-email', { body: { token } })).status).toBe(200);
  const session = await server.request('POST', '/v1/auth/sign-in', { body: { email, password } });
  return session.body.token;
}

describe('accounts', () => {
  it('sign-up, verify, sign-in, session, sign-out', async () => {
    const body = { email: 'Ada@Example.org', password: 'correct-horse-battery' };
    const up = await t.request('POST', '/v1/auth/sign-up', { body });
    expect(up.body).toMatchObject({ object: 'account', email: 'ada@example.org', email_verified: false });
    expect((await t.request('POST', '/v1/auth/sign-up', { body })).body.error.code).toBe('EMAIL_ALREADY_REGISTERED');
    const early = await t.request('POST', '/v1/auth/sign-in', { body });
    expect(early.status).toBe(403);
    expect(early.body.error.code).toBe('EMAIL_NOT_VERIFIED');
    expect((await t.request('POST', '/v1/auth/verify-email', { body: { token: 'emv_wrong' } })).body.error.code).toBe('INVALID_TOKEN');
    const token = new URL(String(t.logs.find((l) => l.email === 'ada@example.org')!.verify_url)).searchParams.get('token');
    expect((await t.request('POST', '/v1/auth/verify-email', { body: { token } })).body.email_verified).toBe(true);
    expect((await t.request('POST', '/v1/auth/verify-email', { body: { token } })).status).toBe(401);
    const wrong = await t.request('POST', '/v1/auth/sign-in', { body: { ...body, password: 'nope-nope-nope' } });
    expect(wrong.body.error.code).toBe('INVALID_CREDENTIALS');
    const unknown = await t.request('POST', '/v1/auth/sign-in', { body: { email: 'nobody@example.org', password: 'x' } });
    expect(unknown.body.error.code).toBe('INVALID_CREDENTIALS');
    const session = await t.request('POST', '/v1/auth/sign-in', { body });
    expect(session.body.token).toMatch(/^acs_/);
    const current = await t.request('GET', '/v1/auth/session', { key: session.body.token });
    expect(current.body).toMatchObject({ token: null, account: { email: 'ada@example.org' } });
    expect((await t.request('GET', '/v1/funding-intents', { key: session.body.token })).status).toBe(401);
    expect((await t.request('POST', '/v1/auth/sign-out', { key: session.body.token })).status).toBe(204);
    expect((await t.request('GET', '/v1/auth/session', { key: session.body.token })).status).toBe(401);
  });

  it('passwords are stored with scrypt, never in clear', async () => {
    const row = (await rows(t.server.sql, "SELECT password_hash FROM accounts WHERE email = 'ada@example.org'"))[0] as { password_hash: string };
    expect(row.password_hash).toMatch(/^scrypt\$/);
    expect(row.password_hash).not.toContain('correct-horse');
  });

  it('a short password or a bad email is a validation error', async () => {
    const res = await t.request('POST', '/v1/auth/sign-up', { body: { email: 'not-an-email', password: 'short' } });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['body.email', 'body.password']);
  });
});

describe('applications and keys', () => {
  it('creates, lists, retrieves and updates applications of the account only', async () => {
    const session = await signedIn(t, 'owner@example.org');
    const other = await signedIn(t, 'other@example.org');
    const bad = await t.request('POST', '/v1/applications', { key: session, body: { name: 'Shop', settlement_address: 'GBAD' } });
    expect(bad.body.error.code).toBe('INVALID_DESTINATION');
    const created = await t.request('POST', '/v1/applications', { key: session, body: { name: 'Shop', settlement_address: SETTLEMENT_ADDRESS } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ object: 'application', status: 'ACTIVE', logo_url: null });
    const list = await t.request('GET', '/v1/applications', { key: session });
    expect(list.body.data.map((a: { id: string }) => a.id)).toEqual([created.body.id]);
    expect((await t.request('GET', `/v1/applications/${created.body.id}`, { key: other })).status).toBe(404);
    const updated = await t.request('PATCH', `/v1/applications/${created.body.id}`, { key: session, body: { name: 'Shop EU', settlement_address: null } });
    expect(updated.body).toMatchObject({ name: 'Shop EU', settlement_address: null });
    expect((await t.request('PATCH', `/v1/applications/${created.body.id}`, { key: session, body: {} })).status).toBe(400);
    expect((await t.request('GET', '/v1/applications', { key: KEYS.alphaSecretTest })).status).toBe(401);
  });

  it('creates a key shown once, lists it masked, revokes it', async () => {
    const session = await signedIn(t, 'keys@example.org');
    const app = (await t.request('POST', '/v1/applications', { key: session, body: { name: 'Keys', settlement_address: SETTLEMENT_ADDRESS } })).body;
    const key = await t.request('POST', `/v1/applications/${app.id}/keys`, { key: session, body: { type: 'secret', environment: 'live' } });
    expect(key.status).toBe(201);
    expect(key.body.key).toMatch(/^sk_live_[A-Za-z0-9]{32}$/);
    const stored = (await rows(t.server.sql, 'SELECT key_hash FROM api_keys WHERE id = ?', key.body.id))[0] as { key_hash: string };
    expect(stored.key_hash).toMatch(/^[0-9a-f]{64}$/);
    const intent = await t.request('POST', '/v1/funding-intents', { key: key.body.key, body: { amount: '5', asset: 'USDC' } });
    expect(intent.body.livemode).toBe(true);
    expect(intent.body.funding_instructions.stellar_network).toBe('pubnet');
    const list = await t.request('GET', `/v1/applications/${app.id}/keys`, { key: session });
    expect(list.body.data[0]).toMatchObject({ masked: `sk_live_…${key.body.key.slice(-4)}`, status: 'active' });
    expect(JSON.stringify(list.body)).not.toContain(key.body.key);
    const revoked = await t.request('POST', `/v1/applications/${app.id}/keys/${key.body.id}/revoke`, { key: session });
    expect(revoked.body.status).toBe('revoked');
    const refused = await t.request('GET', '/v1/funding-intents', { key: key.body.key });
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toMatch(/revoked/);
  });

  it('uploads a logo and serves it; rejects other formats and sizes', async () => {
    const session = await signedIn(t, 'logo@example.org');
    const app = (await t.request('POST', '/v1/applications', { key: session, body: { name: 'Logo' } })).body;
    const put = (bytes: Buffer, type: string) => t.request('PUT', `/v1/applications/${app.id}/logo`, { key: session, body: bytes, headers: { 'content-type': type } });
    const ok = await put(png(128, 128), 'image/png');
    expect(ok.status).toBe(200);
    expect(ok.body.logo_url).toMatch(new RegExp(`/v1/applications/${app.id}/logo$`));
    const served = await t.request('GET', `/v1/applications/${app.id}/logo`);
    expect(served.headers['content-type']).toMatch(/^image\/png/);
    expect((await put(gif(128, 128), 'image/png')).body.error.code).toBe('LOGO_FORMAT_UNSUPPORTED');
    expect((await put(Buffer.from('hello'), 'image/png')).status).toBe(415);
    expect((await put(png(32, 32), 'image/png')).body.error.code).toBe('LOGO_DIMENSIONS_INVALID');
    expect((await put(png(200, 100), 'image/png')).status).toBe(422);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256"></svg>');
    expect((await put(svg, 'image/svg+xml')).status).toBe(200);
  });

  it('logo storage failing → 503 LOGO_STORAGE_UNAVAILABLE (retryable)', async () => {
    const blocker = join(mkdtempSync(join(tmpdir(), 'fundkit-logo-')), 'file');
    writeFileSync(blocker, 'not a directory');
    const t2 = await startTestServer({ env: { FUNDKIT_LOGO_DIR: join(blocker, 'logos') } });
    try {
      const session = await signedIn(t2, 'store@example.org');
      const app = (await t2.request('POST', '/v1/applications', { key: session, body: { name: 'S' } })).body;
      const res = await t2.request('PUT', `/v1/applications/${app.id}/logo`, { key: session, body: png(64, 64), headers: { 'content-type': 'image/png' } });
      expect(res.status).toBe(503);
      expect(res.body.error).toMatchObject({ code: 'LOGO_STORAGE_UNAVAILABLE', retryable: true });
    } finally {
      await t2.close();
    }
  });
});
