import { rows, run, value } from './helpers/raw-sql.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, OPERATOR_KEY, startTestServer, type TestServer } from './helpers/server.js';

describe('rate limits', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { FUNDKIT_RATE_LIMIT: '1', FUNDKIT_RATE_LIMIT_BURST: '2' } });
  });
  afterAll(() => t.close());

  it('a key over its bucket gets 429 RATE_LIMITED with Retry-After; other keys are unaffected', async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await t.request('GET', '/v1/assets', { key: KEYS.alphaSecretTest })).status);
    expect(statuses).toEqual([200, 200, 429]);
    const limited = await t.request('GET', '/v1/assets', { key: KEYS.alphaSecretTest });
    expect(limited.headers['retry-after']).toBe('1');
    expect(limited.body.error).toMatchObject({ code: 'RATE_LIMITED', retryable: true });
    expect((await t.request('GET', '/v1/assets', { key: KEYS.alphaPublishableTest })).status).toBe(200);
    expect((await t.request('GET', '/v1/platform/applications', { key: OPERATOR_KEY })).status).toBe(200);
  });

  it('public operations are limited per client address', async () => {
    // at once: each sign-in runs scrypt, and three in a row on loaded cores could outlast a refill
    const statuses = await Promise.all(Array.from({ length: 3 }, () => t.request('POST', '/v1/auth/sign-in', { body: { email: 'a@example.org', password: 'x' } }).then((r) => r.status)));
    expect(statuses.sort((a, b) => a - b)).toEqual([401, 401, 429]);
  });

  it('the bucket refills', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await t.request('GET', '/v1/assets', { key: KEYS.alphaSecretTest })).status).toBe(200);
  });
});

describe('rate limits under concurrent requests', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { FUNDKIT_RATE_LIMIT: '1', FUNDKIT_RATE_LIMIT_BURST: '100' } });
  });
  afterAll(() => t.close());

  it('allow the whole burst to requests that arrive at once (they share one refill, not a share of the bucket each)', async () => {
    // the server takes 5 tokens (a twentieth of the burst) from the shared bucket at a time
    const startedAt = Date.now();
    const statuses = await Promise.all(Array.from({ length: 60 }, () => t.request('GET', '/v1/assets', { key: KEYS.alphaSecretTest }).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200).length).toBe(60);
    const beyond = await Promise.all(Array.from({ length: 50 }, () => t.request('GET', '/v1/assets', { key: KEYS.alphaSecretTest }).then((r) => r.status)));
    // 100 in all, and what refilled meanwhile (1 a second)
    const seconds = (Date.now() - startedAt) / 1000;
    expect(beyond.filter((s) => s === 200).length).toBeGreaterThanOrEqual(40);
    expect(beyond.filter((s) => s === 200).length).toBeLessThanOrEqual(40 + Math.ceil(seconds) + 1);
    expect(beyond.filter((s) => s === 429).length).toBe(50 - beyond.filter((s) => s === 200).length);
  });
});

describe('request logs', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('records application-key requests without secrets, per environment', async () => {
    await t.request('POST', '/v1/funding-intents', { key: KEYS.alphaSecretTest, body: { amount: '1', asset: 'USDC' }, headers: { 'idempotency-key': 'log-1', 'x-request-id': 'log-trace-1' } });
    await t.request('GET', '/v1/funding-intents/fi_missing?expand=x', { key: KEYS.alphaSecretTest });
    await t.request('GET', '/v1/assets', { key: KEYS.alphaSecretLive });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const list = await t.request('GET', '/v1/request_logs', { key: KEYS.alphaSecretTest });
    const logs = list.body.data;
    expect(logs.map((l: { path: string; status: number }) => [l.path, l.status])).toEqual([
      ['/v1/funding-intents/fi_missing', 404],
      ['/v1/funding-intents', 201],
    ]);
    expect(logs[1]).toMatchObject({ method: 'POST', request_id: 'log-trace-1', idempotency_key: 'log-1', livemode: false });
    expect(logs[1].api_key_id).toMatch(/^key_/);
    const raw = JSON.stringify((await rows(t.server.sql, 'SELECT * FROM request_logs')));
    expect(raw).not.toContain(KEYS.alphaSecretTest);
    const only404 = await t.request('GET', '/v1/request_logs?status=404', { key: KEYS.alphaSecretTest });
    expect(only404.body.data).toHaveLength(1);
    const one = await t.request('GET', `/v1/request_logs/${logs[0].id}`, { key: KEYS.alphaSecretTest });
    expect(one.body.id).toBe(logs[0].id);
    const otherEnv = await t.request('GET', `/v1/request_logs/${logs[0].id}`, { key: KEYS.alphaSecretLive });
    expect(otherEnv.status).toBe(403);
    expect((await t.request('GET', `/v1/request_logs/${logs[0].id}`, { key: KEYS.betaSecretTest })).status).toBe(404);
  });

  it('does not log operator or dashboard requests', async () => {
    await t.request('GET', '/v1/platform/applications', { key: OPERATOR_KEY });
    const count = ((await rows(t.server.sql, "SELECT COUNT(*) AS n FROM request_logs WHERE path LIKE '/v1/platform/%'"))[0] as { n: number }).n;
    expect(count).toBe(0);
  });

  it('writes buffered logs on the flush timer and at flush (close), without any read', async () => {
    const count = async () => Number(await value(t.server.sql, "SELECT COUNT(*) AS n FROM request_logs WHERE path = '/v1/assets/xlm'"));
    await t.request('GET', '/v1/assets/xlm', { key: KEYS.alphaSecretTest });
    // written by the flush timer (polled: a flush on loaded cores may take longer than its interval)
    await expect.poll(count).toBe(1);
    await t.request('GET', '/v1/assets/xlm', { key: KEYS.alphaSecretTest });
    await t.server.services.requestLogs.flush();
    expect(await count()).toBe(2);
  });

  it('purges logs older than 30 days', async () => {
    const old = new Date(Date.now() - 31 * 86_400_000).toISOString();
    (await run(t.server.sql, "INSERT INTO request_logs (id, application_id, environment, key_id, method, path, status, request_id, duration_ms, idempotency_key, created_at) VALUES ('rl_old', 'app_x', 'test', 'key_x', 'GET', '/v1/assets', 200, 'req_x', 1, NULL, ?)", old));
    expect(await t.server.services.requestLogs.purgeExpired()).toBe(1);
    expect((await rows(t.server.sql, "SELECT id FROM request_logs WHERE id = 'rl_old'"))[0]).toBeUndefined();
  });
});
