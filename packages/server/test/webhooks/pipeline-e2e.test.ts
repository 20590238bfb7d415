import { verifyWebhook } from '@fundkit/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { createIntent, key, pay, startPipelineServer, waitForIntent } from '../pipeline/helpers.js';
import { eventually, startReceiver, type Receiver } from './receiver.js';

const ALL_TYPES = ['payment.pending', 'payment.processing', 'payment.completed', 'payment.failed', 'payout.initiated', 'payout.completed',
  'payout.failed', 'invoice.paid', 'invoice.overdue', 'refund.created', 'refund.completed', 'refund.failed'];

let t: TestServer;
let r: Receiver;
let secret: string;

beforeAll(async () => {
  t = await startPipelineServer();
  r = await startReceiver();
  const endpoint = await t.request('POST', '/v1/webhooks', { key, body: { url: r.url, events: ALL_TYPES } });
  secret = endpoint.body.secret;
});
afterAll(async () => {
  await r.close();
  await t.close();
});

describe('end to end: a sandbox payment → every event at the receiver', () => {
  it('delivers the pipeline\'s events verified, exactly as the events API serves them, and measures latency', async () => {
    const intent = await createIntent(t);
    await pay(t, intent.id, '25.00');
    await waitForIntent(t, intent.id, (i) => i.status === 'CREDITED');
    const expected = ['payment.pending', 'payment.processing', 'payout.initiated', 'payout.completed', 'payment.completed', 'invoice.paid'];
    // every type arrived (at least once: a duplicate may come before the last type)
    const typesIn = (hits: typeof r.received) => new Set(hits.map((hit) => (JSON.parse(hit.body) as { type: string }).type));
    const received = await eventually(() => (expected.every((type) => typesIn(r.received).has(type)) ? r.received : undefined));
    const latencies: number[] = [];
    const types: string[] = [];
    for (const hit of received) {
      const event = await verifyWebhook(hit.body, hit.headers as Record<string, string>, secret);
      types.push(event.type);
      latencies.push(hit.receivedAt - Date.parse(event.created_at));
      // retrieved through the contract-checked harness: the payload must match the spec's WebhookEvent
      const stored = await t.request('GET', `/v1/events/${event.id}`, { key });
      expect(stored.text).toBe(hit.body);
    }
    // at least once and unordered: compare as sets
    expect([...new Set(types)].sort()).toEqual([...expected].sort());
    const sorted = [...latencies].sort((a, b) => a - b);
    const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
    console.log(`pipeline events (transition → receiver) over ${sorted.length} deliveries: p50 ${at(50)} ms, p95 ${at(95)} ms`);
  });
});
