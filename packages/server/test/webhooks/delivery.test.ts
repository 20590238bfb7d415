import { rows } from '../helpers/raw-sql.js';
import { verifyWebhook } from '@fundkit/webhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, startTestServer, type TestServer } from '../helpers/server.js';
import { eventually, startReceiver, type Answer, type Receiver } from './receiver.js';

const key = KEYS.alphaSecretTest;
let t: TestServer;
const receivers: Receiver[] = [];

beforeAll(async () => {
  // retries 150 ms apart and a 1 s timeout keep the schedule observable within a test
  t = await startTestServer({ env: { FUNDKIT_WEBHOOK_RETRY_SCHEDULE: '150ms,150ms,150ms' }, webhooks: { timeoutMs: 1000 } });
});
afterAll(() => t.close());
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function receiver(answer?: (n: number) => Answer): Promise<Receiver> {
  const r = await startReceiver(answer);
  receivers.push(r);
  return r;
}

async function endpointFor(r: Receiver, events: string[] = ['payment.pending']) {
  const res = await t.request('POST', '/v1/webhooks', { key, body: { url: r.url, events } });
  expect(res.status).toBe(201);
  return res.body as { id: string; secret: string };
}

async function deliveryOf(endpointId: string, deliveryId: string) {
  const res = await t.request('GET', `/v1/webhooks/${endpointId}/deliveries`, { key });
  return res.body.data.find((d: { id: string }) => d.id === deliveryId);
}

/** The delivery once it has left PENDING (or has `attempts` attempts). */
function settled(endpointId: string, deliveryId: string, attempts?: number) {
  return eventually(async () => {
    const d = await deliveryOf(endpointId, deliveryId);
    const done = attempts === undefined ? d.status !== 'PENDING' : d.attempts.length >= attempts;
    return done ? d : undefined;
  });
}

describe('test events', () => {
  it('delivers a signed webhook.test that @fundkit/webhooks verifies', async () => {
    const r = await receiver();
    const endpoint = await endpointFor(r);
    const res = await t.request('POST', `/v1/webhooks/${endpoint.id}/test`, { key });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ object: 'webhook_delivery', webhook_endpoint_id: endpoint.id, event_type: 'webhook.test', status: 'PENDING' });
    const [hit] = await r.waitFor(1);
    const event = await verifyWebhook(hit!.body, hit!.headers as Record<string, string>, endpoint.secret);
    expect(event).toMatchObject({ id: res.body.event_id, object: 'event', type: 'webhook.test', livemode: false, data: { webhook_endpoint_id: endpoint.id } });
    expect(hit!.headers['service-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(hit!.headers['service-signature-v2']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(hit!.headers['service-webhook-id']).toBe(res.body.event_id);
    expect(hit!.headers['service-webhook-attempt']).toBe('1');
    expect(hit!.headers['content-type']).toBe('application/json');
    const done = await settled(endpoint.id, res.body.id);
    expect(done).toMatchObject({ status: 'SUCCEEDED', next_attempt_at: null });
    expect(done.attempts).toEqual([{ number: 1, status_code: 200, latency_ms: expect.any(Number), response_excerpt: 'ok', error: null, attempted_at: expect.any(String) }]);
    // the event is the same object through the events API
    const stored = await t.request('GET', `/v1/events/${res.body.event_id}`, { key });
    expect(stored.text).toBe(hit!.body);
  });

  it('goes only to that endpoint, and refuses a disabled one', async () => {
    const r1 = await receiver();
    const r2 = await receiver();
    const target = await endpointFor(r1, ['webhook.test']);
    await endpointFor(r2, ['webhook.test']);
    await t.request('POST', `/v1/webhooks/${target.id}/test`, { key });
    await r1.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(r2.received).toHaveLength(0);
    await t.request('PATCH', `/v1/webhooks/${target.id}`, { key, body: { enabled: false } });
    expect((await t.request('POST', `/v1/webhooks/${target.id}/test`, { key })).status).toBe(409);
  });
});

describe('retries', () => {
  it('retries a 500 on the schedule and records every attempt', async () => {
    const r = await receiver((n) => (n === 0 ? { status: 500, body: 'boom' } : { status: 200, body: 'thanks' }));
    const endpoint = await endpointFor(r);
    const { body: delivery } = await t.request('POST', `/v1/webhooks/${endpoint.id}/test`, { key });
    const [first, second] = await r.waitFor(2);
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(140);
    expect(second!.headers['service-webhook-attempt']).toBe('2');
    expect(second!.headers['service-webhook-id']).toBe(first!.headers['service-webhook-id']);
    await verifyWebhook(second!.body, second!.headers as Record<string, string>, endpoint.secret);
    const done = await settled(endpoint.id, delivery.id);
    expect(done.status).toBe('SUCCEEDED');
    expect(done.attempts.map((a: { number: number; status_code: number; response_excerpt: string }) => [a.number, a.status_code, a.response_excerpt]))
      .toEqual([[1, 500, 'boom'], [2, 200, 'thanks']]);
    expect(done.attempts.every((a: { latency_ms: number }) => Number.isInteger(a.latency_ms) && a.latency_ms >= 0)).toBe(true);
  });

  it('gives up after the last retry: FAILED with no next attempt', async () => {
    const r = await receiver(() => ({ status: 503 }));
    const endpoint = await endpointFor(r);
    const { body: delivery } = await t.request('POST', `/v1/webhooks/${endpoint.id}/test`, { key });
    const done = await settled(endpoint.id, delivery.id);
    expect(done.status).toBe('FAILED');
    expect(done.next_attempt_at).toBeNull();
    expect(done.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([503, 503, 503, 503]);
    const failed = await t.request('GET', `/v1/webhooks/${endpoint.id}/deliveries?status=FAILED`, { key });
    expect(failed.body.data.map((d: { id: string }) => d.id)).toContain(delivery.id);
  });

  it('records a refused connection as an error without a status', async () => {
    const r = await receiver();
    const endpoint = await endpointFor(r);
    await r.close();
    const { body: delivery } = await t.request('POST', `/v1/webhooks/${endpoint.id}/test`, { key });
    const first = await settled(endpoint.id, delivery.id, 1);
    expect(first.attempts[0]).toMatchObject({ status_code: null, error: 'connection refused' });
  });

  it('keeps a response excerpt of at most 1 KiB', async () => {
    const r = await receiver(() => ({ status: 200, body: 'é'.repeat(5000) }));
    const endpoint = await endpointFor(r);
    const { body: delivery } = await t.request('POST', `/v1/webhooks/${endpoint.id}/test`, { key });
    const done = await settled(endpoint.id, delivery.id);
    expect(done.attempts[0].response_excerpt).toBe('é'.repeat(1024));
  });
});

describe('a hanging endpoint', () => {
  it('times out without delaying a healthy endpoint', async () => {
    const hanging = await receiver(() => 'hang');
    const healthy = await receiver();
    const slow = await endpointFor(hanging);
    await endpointFor(healthy);
    const intent = await t.request('POST', '/v1/funding-intents', { key, body: { amount: '10', asset: 'USDC' } });
    expect(intent.status).toBe(201);
    const [fast] = await healthy.waitFor(1);
    const [hung] = await hanging.waitFor(1);
    // well before the hanging attempt times out (1 s after it began)
    expect(fast!.receivedAt).toBeLessThan(hung!.receivedAt + 900);
    const deliveries = await t.request('GET', `/v1/webhooks/${slow.id}/deliveries`, { key });
    const delivery = deliveries.body.data[0];
    const first = await settled(slow.id, delivery.id, 1);
    expect(first.attempts[0]).toMatchObject({ status_code: null, error: expect.stringMatching(/^timeout/) });
    expect(first.attempts[0].latency_ms).toBeGreaterThanOrEqual(950);
  });
});

describe('redelivery', () => {
  it('sends a delivered event again now (202, PENDING), same event id, next attempt number', async () => {
    const r = await receiver();
    const endpoint = await endpointFor(r);
    const { body: delivery } = await t.request('POST', `/v1/webhooks/${endpoint.id}/test`, { key });
    await settled(endpoint.id, delivery.id);
    const res = await t.request('POST', `/v1/webhooks/${endpoint.id}/deliveries/${delivery.id}/redeliver`, { key });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ id: delivery.id, status: 'PENDING', next_attempt_at: expect.any(String) });
    const [first, again] = await r.waitFor(2);
    expect(again!.headers['service-webhook-id']).toBe(first!.headers['service-webhook-id']);
    expect(again!.headers['service-webhook-attempt']).toBe('2');
    expect(again!.body).toBe(first!.body);
    const done = await settled(endpoint.id, delivery.id, 2);
    expect(done.status).toBe('SUCCEEDED');
  });

  it('404s an unknown delivery or one of another endpoint', async () => {
    const r = await receiver();
    const a = await endpointFor(r);
    const b = await endpointFor(r);
    const { body: delivery } = await t.request('POST', `/v1/webhooks/${a.id}/test`, { key });
    expect((await t.request('POST', `/v1/webhooks/${b.id}/deliveries/${delivery.id}/redeliver`, { key })).status).toBe(404);
    expect((await t.request('POST', `/v1/webhooks/${a.id}/deliveries/wd_nope/redeliver`, { key })).status).toBe(404);
  });
});

describe('fan-out', () => {
  it('delivers an event once to each enabled subscribed endpoint of its application and environment', async () => {
    const subscribed = await receiver();
    const other = await receiver();
    const disabled = await receiver();
    await endpointFor(subscribed, ['payment.pending', 'payment.completed']);
    await endpointFor(other, ['refund.created']);
    const off = await endpointFor(disabled, ['payment.pending']);
    await t.request('PATCH', `/v1/webhooks/${off.id}`, { key, body: { enabled: false } });
    const beta = await t.request('POST', '/v1/webhooks', { key: KEYS.betaSecretTest, body: { url: other.url, events: ['payment.pending'] } });
    expect(beta.status).toBe(201);
    await t.request('POST', '/v1/funding-intents', { key, body: { amount: '5', asset: 'USDC' } });
    await subscribed.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(subscribed.received).toHaveLength(1);
    expect(other.received).toHaveLength(0);
    expect(disabled.received).toHaveLength(0);
    const event = JSON.parse(subscribed.received[0]!.body);
    expect(event.type).toBe('payment.pending');
  });

  it('abandons pending deliveries of a deleted endpoint', async () => {
    const r = await receiver(() => ({ status: 500 }));
    const endpoint = await endpointFor(r);
    const { body: delivery } = await t.request('POST', `/v1/webhooks/${endpoint.id}/test`, { key });
    await r.waitFor(1);
    await t.request('DELETE', `/v1/webhooks/${endpoint.id}`, { key });
    const row = (await rows(t.server.sql, 'SELECT status, next_attempt_at FROM webhook_deliveries WHERE id = ?', delivery.id))[0];
    expect(row).toEqual({ status: 'FAILED', next_attempt_at: null });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(r.received.length).toBeLessThanOrEqual(2);
  });
});
