import { createHmac } from 'node:crypto';
import { verifyWebhook, WebhookVerificationError } from '@fundkit/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, startTestServer, type TestServer } from '../helpers/server.js';
import { startReceiver, type Receiver } from './receiver.js';

const key = KEYS.alphaSecretTest;
const DAY = 24 * 3_600_000;
// the server's clock: real time plus an offset the test moves forward
let offset = 0;
const clock = () => Date.now() + offset;
let t: TestServer;
let r: Receiver;

beforeAll(async () => {
  t = await startTestServer({ webhooks: { clock } });
  r = await startReceiver();
});
afterAll(async () => {
  await r.close();
  await t.close();
});

const v1Of = (secret: string, timestamp: string, body: string) => createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');

async function sendTest(endpointId: string, count: number) {
  expect((await t.request('POST', `/v1/webhooks/${endpointId}/test`, { key })).status).toBe(201);
  return (await r.waitFor(count))[count - 1]!;
}

describe('secret rotation', () => {
  it('keeps the previous secret signing during the overlap, both in V2, and only the new one after it', async () => {
    const created = await t.request('POST', '/v1/webhooks', { key, body: { url: r.url, events: ['payment.pending'] } });
    const oldSecret: string = created.body.secret;
    const rotated = await t.request('POST', `/v1/webhooks/${created.body.id}/rotate-secret`, { key });
    const newSecret: string = rotated.body.secret;

    const during = await sendTest(created.body.id, 1);
    const headers = during.headers as Record<string, string>;
    const timestamp = headers['service-webhook-timestamp']!;
    // Service-Signature-V2 carries one v1 per valid secret, the incumbent (previous) first
    expect(headers['service-signature-v2']).toBe(`t=${timestamp},v1=${v1Of(oldSecret, timestamp, during.body)},v1=${v1Of(newSecret, timestamp, during.body)}`);
    // Service-Signature (one sha256=, the spec's pattern) stays by the previous secret during the
    // overlap, so a receiver that has not deployed the new secret yet keeps verifying
    expect(headers['service-signature']).toBe(`sha256=${createHmac('sha256', oldSecret).update(during.body).digest('hex')}`);
    await expect(verifyWebhook(during.body, headers, oldSecret)).resolves.toMatchObject({ type: 'webhook.test' });
    await expect(verifyWebhook(during.body, headers, [newSecret, oldSecret])).resolves.toMatchObject({ type: 'webhook.test' });
    await expect(verifyWebhook(during.body, headers, [oldSecret, newSecret])).resolves.toMatchObject({ type: 'webhook.test' });
    // a receiver that dropped the old secret too early fails on Service-Signature: the
    // @fundkit/webhooks README says to keep both secrets until the overlap ends
    const newOnly = await verifyWebhook(during.body, headers, newSecret).catch((error: unknown) => error);
    expect((newOnly as WebhookVerificationError).reason).toBe('signature_mismatch');

    offset = DAY + 60_000;
    const after = await sendTest(created.body.id, 2);
    const afterHeaders = after.headers as Record<string, string>;
    const now = new Date(clock());
    expect(afterHeaders['service-signature-v2']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    await expect(verifyWebhook(after.body, afterHeaders, newSecret, { now })).resolves.toMatchObject({ type: 'webhook.test' });
    const old = await verifyWebhook(after.body, afterHeaders, oldSecret, { now }).catch((error: unknown) => error);
    expect(old).toBeInstanceOf(WebhookVerificationError);
    expect((old as WebhookVerificationError).reason).toBe('signature_mismatch');
    const endpoint = await t.request('GET', `/v1/webhooks/${created.body.id}`, { key });
    expect(endpoint.body.secret_rotation_expires_at).toBeNull();
  });

  it('ends the overlap now on expire-previous-secret: the previous secret signs nothing more', async () => {
    const created = await t.request('POST', '/v1/webhooks', { key, body: { url: r.url, events: ['payment.pending'] } });
    const oldSecret: string = created.body.secret;
    const rotated = await t.request('POST', `/v1/webhooks/${created.body.id}/rotate-secret`, { key });
    expect(rotated.body.secret_rotation_expires_at).not.toBeNull();
    const ended = await t.request('POST', `/v1/webhooks/${created.body.id}/expire-previous-secret`, { key });
    expect(ended.status).toBe(200);
    expect(ended.body).toMatchObject({ id: created.body.id, object: 'webhook_endpoint', secret_rotation_expires_at: null });
    expect(ended.body.secret).toBeUndefined();
    const now = new Date(clock());
    const hit = await sendTest(created.body.id, r.received.length + 1);
    const headers = hit.headers as Record<string, string>;
    expect(headers['service-signature-v2']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    await expect(verifyWebhook(hit.body, headers, rotated.body.secret, { now })).resolves.toMatchObject({ type: 'webhook.test' });
    const old = await verifyWebhook(hit.body, headers, oldSecret, { now }).catch((error: unknown) => error);
    expect((old as WebhookVerificationError).reason).toBe('signature_mismatch');
    // again, or without a rotation: nothing changes; another application's endpoint is not found
    expect((await t.request('POST', `/v1/webhooks/${created.body.id}/expire-previous-secret`, { key })).body.secret_rotation_expires_at).toBeNull();
    expect((await t.request('POST', `/v1/webhooks/${created.body.id}/expire-previous-secret`, { key: KEYS.betaSecretTest })).status).toBe(404);
  });
});
