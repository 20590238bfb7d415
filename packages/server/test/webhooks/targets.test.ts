/**
 * Webhook targets (issue 38, item 1): outside the sandbox no delivery reaches a loopback, private or
 * special-purpose address, refused at registration when the host is an address and again when a
 * delivery connects (the address a name resolves to). The sandbox's test environment delivers
 * anywhere, and an operator may open named ranges.
 */
import { lookup } from 'node:dns/promises';
import { run } from '../helpers/raw-sql.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, startTestServer, type TestServer } from '../helpers/server.js';
import { eventually, startReceiver, type Receiver } from './receiver.js';

/** A name that resolves to the internal receiver's host, as a DNS record an attacker controls would. */
const INTERNAL_NAME = 'hooks.internal.test';
const testResolver = async (hostname: string) => hostname === INTERNAL_NAME
  ? [{ address: '127.0.0.1', family: 4 }]
  : lookup(hostname, { all: true });

/** A real network (testnet) the server never reaches: its webhooks are not the sandbox's. */
const NON_SANDBOX = { FUNDKIT_STELLAR: 'testnet', FUNDKIT_HORIZON_URL: 'http://127.0.0.1:9' };

/** Every spelling of the internal host: [url, the rule the refusal names]. */
function loopbackSpellings(port: number): [string, RegExp][] {
  return [
    [`http://127.0.0.1:${port}/hooks`, /127\.0\.0\.1 is a loopback address/],
    [`http://localhost:${port}/hooks`, /localhost is a loopback name/],
    [`http://[::1]:${port}/hooks`, /::1 is a loopback address/],
    [`http://127.1:${port}/hooks`, /127\.0\.0\.1 is a loopback address/],
    [`http://2130706433:${port}/hooks`, /127\.0\.0\.1 is a loopback address/],
    [`http://0x7f000001:${port}/hooks`, /127\.0\.0\.1 is a loopback address/],
    [`http://[::ffff:127.0.0.1]:${port}/hooks`, /::ffff:7f00:1 is an IPv4-mapped address/],
    [`http://0.0.0.0:${port}/hooks`, /0\.0\.0\.0 is an unspecified address/],
  ];
}

const OTHER_CLASSES: [string, RegExp][] = [
  ['http://10.0.0.8/hooks', /a private address/],
  ['http://172.16.4.1/hooks', /a private address/],
  ['http://192.168.1.10/hooks', /a private address/],
  ['http://169.254.169.254/latest/meta-data', /a link-local address/],
  ['http://100.64.0.1/hooks', /a CGNAT address/],
  ['http://198.18.0.1/hooks', /a benchmarking address/],
  ['http://224.0.0.1/hooks', /a multicast address/],
  ['http://[fe80::1]/hooks', /a link-local address/],
  ['http://[fd12:3456::1]/hooks', /a private \(unique local\) address/],
  ['http://[64:ff9b::a00:8]/hooks', /a NAT64 address/],
];

let internal: Receiver;
beforeAll(async () => {
  internal = await startReceiver(() => ({ status: 200, body: 'internal secrets' }));
});
afterAll(() => internal.close());

async function register(t: TestServer, url: string, key: string = KEYS.alphaSecretTest) {
  return t.request('POST', '/v1/webhooks', { key, body: { url, events: ['payment.completed'] } });
}

/** Sends a test event to the endpoint and returns its delivery once the first attempt is recorded. */
async function firstAttempt(t: TestServer, endpointId: string, key: string = KEYS.alphaSecretTest) {
  const sent = await t.request('POST', `/v1/webhooks/${endpointId}/test`, { key });
  expect(sent.status).toBe(201);
  return eventually(async () => {
    const list = await t.request('GET', `/v1/webhooks/${endpointId}/deliveries`, { key });
    const delivery = list.body.data.find((d: { id: string }) => d.id === sent.body.id);
    return delivery?.attempts.length > 0 ? delivery : undefined;
  });
}

describe('outside the sandbox (testnet)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { ...NON_SANDBOX, FUNDKIT_WEBHOOK_RETRY_SCHEDULE: '1h' }, webhooks: { lookup: testResolver } });
  }, 60_000);
  afterAll(() => t.close());

  it('refuses every spelling of the loopback host at registration, 422 naming the rule, in both environments', async () => {
    const port = Number(new URL(internal.url).port);
    for (const key of [KEYS.alphaSecretTest, KEYS.alphaSecretLive]) {
      for (const [url, rule] of loopbackSpellings(port)) {
        const res = await register(t, url, key);
        expect(res.status, url).toBe(422);
        expect(res.body.error.code).toBe('VALIDATION_ERROR');
        expect(res.body.error.details).toEqual([{ path: 'body.url', message: expect.stringMatching(rule) }]);
      }
    }
    expect(internal.received).toHaveLength(0);
  });

  it('refuses private, link-local, CGNAT, benchmarking, multicast and NAT64 addresses', async () => {
    for (const [url, rule] of OTHER_CLASSES) {
      const res = await register(t, url);
      expect(res.status, url).toBe(422);
      expect(res.body.error.message).toMatch(rule);
    }
  });

  it('refuses the same on update', async () => {
    const endpoint = await register(t, 'https://shop.example.org/hooks');
    expect(endpoint.status).toBe(201);
    const res = await t.request('PATCH', `/v1/webhooks/${endpoint.body.id}`, { key: KEYS.alphaSecretTest, body: { url: internal.url } });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toMatch(/loopback/);
  });

  it('accepts a name that resolves inside, but refuses it when connecting: nothing reaches the host, the attempt says why', async () => {
    const endpoint = await register(t, `http://${INTERNAL_NAME}:${new URL(internal.url).port}/hooks`);
    expect(endpoint.status).toBe(201);
    const delivery = await firstAttempt(t, endpoint.body.id);
    expect(delivery.attempts[0]).toMatchObject({
      status_code: null, response_excerpt: null,
      error: expect.stringMatching(/^refused: hooks\.internal\.test resolves to 127\.0\.0\.1 is a loopback address/),
    });
    expect(internal.received).toHaveLength(0);
  });

  it('refuses a stored literal address at delivery too (an endpoint registered before the rule)', async () => {
    const endpoint = await register(t, 'https://shop.example.org/old');
    const spelling = `http://2130706433:${new URL(internal.url).port}/hooks`;
    await run(t.server.sql, 'UPDATE webhook_endpoints SET url = ? WHERE id = ?', spelling, endpoint.body.id);
    const delivery = await firstAttempt(t, endpoint.body.id);
    expect(delivery.attempts[0].error).toMatch(/^refused: 127\.0\.0\.1 is a loopback address/);
    expect(internal.received).toHaveLength(0);
  });
});

describe('an operator allows a named range (FUNDKIT_WEBHOOK_ALLOW_PRIVATE)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { ...NON_SANDBOX, FUNDKIT_WEBHOOK_ALLOW_PRIVATE: '127.0.0.0/8, fd00::/8' }, webhooks: { lookup: testResolver } });
  }, 60_000);
  afterAll(() => t.close());

  it('registers and delivers inside it, by address and by name; other ranges stay refused', async () => {
    const before = internal.received.length;
    const byAddress = await register(t, internal.url, KEYS.alphaSecretLive);
    expect(byAddress.status).toBe(201);
    expect((await firstAttempt(t, byAddress.body.id, KEYS.alphaSecretLive)).attempts[0]).toMatchObject({ status_code: 200, error: null });
    const byName = await register(t, `http://${INTERNAL_NAME}:${new URL(internal.url).port}/hooks`);
    expect((await firstAttempt(t, byName.body.id)).attempts[0]).toMatchObject({ status_code: 200, error: null });
    expect(internal.received.length - before).toBe(2);
    expect((await register(t, 'http://10.0.0.8/hooks')).status).toBe(422);
    expect((await register(t, 'http://[::1]/hooks')).status).toBe(422);
  });
});

describe('in the sandbox', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ webhooks: { lookup: testResolver } });
  }, 60_000);
  afterAll(() => t.close());

  it('registers every spelling with a test key and delivers to the local receiver, by address and by name', async () => {
    const port = Number(new URL(internal.url).port);
    for (const [url] of loopbackSpellings(port)) expect((await register(t, url)).status, url).toBe(201);
    const before = internal.received.length;
    // the IPv4 spellings reach the receiver on 127.0.0.1 (0.0.0.0 connects to this host)
    const reachable = [...loopbackSpellings(port).map(([url]) => url).filter((url) => !url.includes('[::1]')), `http://${INTERNAL_NAME}:${port}/hooks`];
    for (const url of reachable) {
      const endpoint = await register(t, url);
      expect((await firstAttempt(t, endpoint.body.id)).attempts[0], url).toMatchObject({ status_code: 200, response_excerpt: 'internal secrets' });
    }
    expect(internal.received.length - before).toBe(reachable.length);
  });

  it('still guards the live environment', async () => {
    const res = await register(t, internal.url, KEYS.alphaSecretLive);
    expect(res.status).toBe(422);
    expect(res.body.error.message).toMatch(/127\.0\.0\.1 is a loopback address/);
  });
});
