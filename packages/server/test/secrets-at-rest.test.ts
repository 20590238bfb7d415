/**
 * Secrets at rest (issue 38, item 8): a secret shown once (a webhook's whsec_, a checkout session
 * token, a handoff token, an API key) is never stored in clear text, idempotency records included,
 * while a retry with the same Idempotency-Key still gets the same secret back. On SQLite the
 * database file and its WAL are scanned byte for byte (freed pages included); on PostgreSQL every
 * row of every table, as text.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from './helpers/raw-sql.js';
import { KEYS, startTestServer, type TestServer } from './helpers/server.js';

let t: TestServer;
let dbFile: string;
let n = 0;
const idem = () => `secrets_at_rest_${n++}_key`;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fundkit-secrets-'));
  dbFile = join(dir, 'fundkit.db');
  t = await startTestServer({ env: { FUNDKIT_DB: dbFile, FUNDKIT_DATA_DIR: dir } });
}, 60_000);
afterAll(() => t.close());

/** Where the secret is found in clear text: the SQLite file and WAL bytes, or any PostgreSQL row. */
async function foundAtRest(secret: string): Promise<string[]> {
  if (t.server.sql.dialect === 'postgres') {
    const tables = await rows<{ name: string }>(t.server.sql, "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'");
    const found: string[] = [];
    for (const { name } of tables) {
      const hits = await rows(t.server.sql, `SELECT 1 AS hit FROM "${name}" AS r WHERE r::text LIKE ?`, `%${secret}%`);
      if (hits.length > 0) found.push(name);
    }
    return found;
  }
  return [dbFile, `${dbFile}-wal`].filter((file) => existsSync(file) && readFileSync(file).includes(Buffer.from(secret, 'utf8')));
}

const post = (path: string, key: string, body: object, idempotencyKey: string) =>
  t.request('POST', path, { key, body, headers: { 'idempotency-key': idempotencyKey } });

describe('secrets at rest', () => {
  it('a new webhook secret is not stored in clear text; a replay returns it', async () => {
    const key = idem();
    const body = { url: 'https://example.org/hooks', events: ['payment.completed'] };
    const created = await post('/v1/webhooks', KEYS.alphaSecretTest, body, key);
    expect(created.status).toBe(201);
    const secret = created.body.secret as string;
    expect(secret).toMatch(/^whsec_/);
    const replay = await post('/v1/webhooks', KEYS.alphaSecretTest, body, key);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.secret).toBe(secret);
    expect(await foundAtRest(secret)).toEqual([]);
  });

  it('checkout session, handoff and resumed session tokens are not stored in clear text; replays return them', async () => {
    const intent = await t.request('POST', '/v1/funding-intents', { key: KEYS.alphaSecretTest, body: { amount: '25', asset: 'USDC' } });
    const sessionKey = idem();
    const session = await post('/v1/checkout_sessions', KEYS.alphaSecretTest, { funding_intent_id: intent.body.id }, sessionKey);
    expect(session.status).toBe(201);
    const sessionToken = session.body.session_token as string;
    expect((await post('/v1/checkout_sessions', KEYS.alphaSecretTest, { funding_intent_id: intent.body.id }, sessionKey)).body.session_token).toBe(sessionToken);

    const handoffKey = idem();
    const handoff = await post(`/v1/checkout_sessions/${session.body.id}/handoff`, sessionToken, {}, handoffKey);
    expect(handoff.status).toBe(201);
    const handoffToken = handoff.body.handoff_token as string;
    expect((await post(`/v1/checkout_sessions/${session.body.id}/handoff`, sessionToken, {}, handoffKey)).body.handoff_token).toBe(handoffToken);

    const resumeKey = idem();
    const resumed = await post('/v1/checkout_sessions/resume', KEYS.alphaSecretTest, { handoff_token: handoffToken }, resumeKey);
    expect(resumed.status).toBe(200);
    const resumedToken = resumed.body.session_token as string;
    expect((await post('/v1/checkout_sessions/resume', KEYS.alphaSecretTest, { handoff_token: handoffToken }, resumeKey)).body.session_token).toBe(resumedToken);

    for (const secret of [sessionToken, handoffToken, resumedToken]) expect(await foundAtRest(secret)).toEqual([]);
  });

  it('an API key is stored only as its hash', async () => {
    expect((await t.request('GET', '/v1/assets', { key: KEYS.alphaSecretTest })).status).toBe(200);
    expect(await foundAtRest(KEYS.alphaSecretTest)).toEqual([]);
  });

  it("a checkout session's Idempotency-Key is its own: another session's use of the same key does not collide", async () => {
    const intent = await t.request('POST', '/v1/funding-intents', { key: KEYS.alphaSecretTest, body: { amount: '25', asset: 'USDC' } });
    const sessions = [];
    for (let i = 0; i < 2; i++) sessions.push((await post('/v1/checkout_sessions', KEYS.alphaSecretTest, { funding_intent_id: intent.body.id }, idem())).body);
    const shared = idem();
    const first = await post(`/v1/checkout_sessions/${sessions[0].id}/handoff`, sessions[0].session_token, {}, shared);
    const second = await post(`/v1/checkout_sessions/${sessions[1].id}/handoff`, sessions[1].session_token, {}, shared);
    expect(first.status).toBe(201);
    // scoped to the application, the second payer's key would name the first payer's request (422)
    expect(second.status).toBe(201);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.body.handoff_token).not.toBe(first.body.handoff_token);
  });
});
