/**
 * Per-application caps (issue 38, item 10): endpoints per application and environment, and the
 * attempts of one application's endpoints in flight at once, so one tenant's receivers that never
 * answer cannot hold every slot of the shared delivery pool.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createServer } from '../../src/index.js';
import { KEYS, startTestServer, type TestServer } from '../helpers/server.js';
import { eventually, startReceiver, type Receiver } from './receiver.js';

const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function receiver(answer?: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
  const r = await startReceiver(answer);
  receivers.push(r);
  return r;
}

describe('endpoints per application (FUNDKIT_WEBHOOK_MAX_ENDPOINTS)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { FUNDKIT_WEBHOOK_MAX_ENDPOINTS: '3' } });
  }, 60_000);
  afterAll(() => t.close());
  const create = (key: string, n: number) => t.request('POST', '/v1/webhooks', { key, body: { url: `https://shop.example.org/h${n}`, events: ['payment.completed'] } });

  it('refuses the endpoint past the cap with 409 CONFLICT naming it, per application and environment; a deletion frees a place', async () => {
    const made = [];
    for (let n = 0; n < 3; n += 1) made.push((await create(KEYS.alphaSecretTest, n)).body);
    const over = await create(KEYS.alphaSecretTest, 3);
    expect(over.status).toBe(409);
    expect(over.body.error).toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/already has 3 webhook endpoints in the test environment, the most allowed \(3\)/) });
    // another environment and another application have their own places
    expect((await create(KEYS.alphaSecretLive, 0)).status).toBe(201);
    expect((await create(KEYS.betaSecretTest, 0)).status).toBe(201);
    expect((await t.request('DELETE', `/v1/webhooks/${made[0].id}`, { key: KEYS.alphaSecretTest })).status).toBe(200);
    expect((await create(KEYS.alphaSecretTest, 4)).status).toBe(201);
  });
});

describe('attempts in flight per application (FUNDKIT_WEBHOOK_APPLICATION_IN_FLIGHT)', () => {
  let t: TestServer;
  beforeAll(async () => {
    // a pool of 4 and an application share of 2; attempts wait 60 s for an answer, so a slot held
    // by a hanging receiver stays held for the whole test
    t = await startTestServer({ env: { FUNDKIT_WEBHOOK_APPLICATION_IN_FLIGHT: '2' }, webhooks: { concurrency: 4, timeoutMs: 60_000 } });
  }, 60_000);
  afterAll(() => t.close());

  const endpointFor = async (key: string, r: Receiver) =>
    (await t.request('POST', '/v1/webhooks', { key, body: { url: r.url, events: ['payment.completed'] } })).body as { id: string };
  const sendTest = (key: string, id: string) => t.request('POST', `/v1/webhooks/${id}/test`, { key });

  it("one application's hanging receivers hold its share only: another application is delivered at once", async () => {
    const hanging = [await receiver(() => 'hang'), await receiver(() => 'hang')];
    for (const r of hanging) {
      const endpoint = await endpointFor(KEYS.alphaSecretTest, r);
      for (let n = 0; n < 3; n += 1) expect((await sendTest(KEYS.alphaSecretTest, endpoint.id)).status).toBe(201);
    }
    const hangingHits = () => hanging.reduce((sum, r) => sum + r.received.length, 0);
    await eventually(() => (hangingHits() >= 2 ? true : undefined));
    const answering = await receiver();
    const beta = await endpointFor(KEYS.betaSecretTest, answering);
    expect((await sendTest(KEYS.betaSecretTest, beta.id)).status).toBe(201);
    // without the share Alpha's six attempts would fill the pool of 4 for 60 s
    await answering.waitFor(1, 10_000);
    expect(hangingHits()).toBe(2);
  });
});

describe('the settings are checked at start-up', () => {
  it.each([
    [{ FUNDKIT_WEBHOOK_ALLOW_PRIVATE: '10.0.0.0/8,not-a-range' }, /^FUNDKIT_WEBHOOK_ALLOW_PRIVATE: "not-a-range" is not a CIDR range/],
    [{ FUNDKIT_WEBHOOK_ALLOW_PRIVATE: '10.0.0.1' }, /^FUNDKIT_WEBHOOK_ALLOW_PRIVATE: "10.0.0.1" is not a CIDR range/],
    [{ FUNDKIT_WEBHOOK_MAX_ENDPOINTS: '0' }, /^FUNDKIT_WEBHOOK_MAX_ENDPOINTS must be an integer/],
    [{ FUNDKIT_WEBHOOK_APPLICATION_IN_FLIGHT: 'many' }, /^FUNDKIT_WEBHOOK_APPLICATION_IN_FLIGHT must be an integer/],
  ])('%j stops start-up naming the variable', async (env, message) => {
    await expect(createServer({ env: { FUNDKIT_DB: ':memory:', ...env }, logger: pino({ level: 'silent' }) })).rejects.toThrow(message);
  });
});
