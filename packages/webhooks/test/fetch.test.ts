import { describe, expect, it } from 'vitest';
import { createWebhookHandler, signWebhook } from '../src/index.js';
import { expectRejection } from './helpers/expect-reason.js';
import { paymentCompleted, PREVIOUS_SECRET, PRIMARY_SECRET } from './helpers/fixtures.js';

async function webhookRequest(body?: string, secret = PRIMARY_SECRET): Promise<Request> {
  const delivery = await signWebhook(paymentCompleted, secret);
  return new Request('https://merchant.example/webhooks', { method: 'POST', headers: delivery.headers, body: body ?? delivery.body });
}

describe('createWebhookHandler() with a real Request', () => {
  const verify = createWebhookHandler({ secret: PRIMARY_SECRET });

  it('resolves to the verified event', async () => {
    await expect(verify(await webhookRequest())).resolves.toEqual(paymentCompleted);
  });

  it('rejects a tampered body with signature_mismatch', async () => {
    await expectRejection(verify(await webhookRequest('{"id":"evt_forged","type":"payment.completed"}')), 'signature_mismatch');
  });

  it('accepts any of several secrets', async () => {
    const rotating = createWebhookHandler({ secret: [PRIMARY_SECRET, PREVIOUS_SECRET] });
    await expect(rotating(await webhookRequest(undefined, PREVIOUS_SECRET))).resolves.toBeDefined();
  });

  it('refuses to build without a secret', () => {
    expect(() => createWebhookHandler({ secret: '' })).toThrow(expect.objectContaining({ reason: 'no_secret' }));
  });
});
