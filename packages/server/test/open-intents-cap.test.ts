/**
 * The cap on an application's open unpaid intents (issue 38, item 9): every open intent holds a
 * deposit account the treasury sponsors, so an application may hold at most
 * FUNDKIT_MAX_OPEN_INTENTS of them per environment; past it a create answers 429 RATE_LIMITED
 * naming the cap and what to do, and an intent that ends (here: cancelled) makes room again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, SETTLEMENT_ADDRESS, startTestServer, type TestServer } from './helpers/server.js';

const CAP = 3;
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { FUNDKIT_MAX_OPEN_INTENTS: String(CAP) } });
}, 60_000);
afterAll(() => t.close());

const create = (key: string = KEYS.alphaSecretTest) => t.request('POST', '/v1/funding-intents', { key, body: { amount: '10', asset: 'USDC', destination_address: SETTLEMENT_ADDRESS } });

describe('open unpaid intents per application', () => {
  it('are capped: the next create is 429 RATE_LIMITED naming the cap; a cancelled one makes room', async () => {
    const open: string[] = [];
    for (let i = 0; i < CAP; i++) {
      const res = await create();
      expect(res.status).toBe(201);
      open.push(res.body.id);
    }
    const refused = await create();
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    expect(refused.body.error.message).toContain('FUNDKIT_MAX_OPEN_INTENTS');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

    // another environment and another application have caps of their own
    expect((await create(KEYS.alphaSecretLive)).status).toBe(201);
    expect((await create(KEYS.betaSecretTest)).status).toBe(201);

    expect((await t.request('POST', `/v1/funding-intents/${open[0]}/cancel`, { key: KEYS.alphaSecretTest })).status).toBe(200);
    expect((await create()).status).toBe(201);
    expect((await create()).status).toBe(429);
  });

  it('hold under creates racing for the last places: of 12 sent at once, exactly the places left are made', async () => {
    const openOf = async () => (await t.request('GET', '/v1/funding-intents?limit=100', { key: KEYS.betaSecretTest })).body.data
      .filter((i: { status: string }) => ['CREATED', 'AWAITING_PAYMENT'].includes(i.status)).length as number;
    const left = CAP - await openOf();
    expect(left).toBeGreaterThan(0);
    const answers = await Promise.all(Array.from({ length: 12 }, () => create(KEYS.betaSecretTest)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(left);
    expect(statuses.filter((s) => s === 429)).toHaveLength(12 - left);
    expect(await openOf()).toBe(CAP);
  });
});
