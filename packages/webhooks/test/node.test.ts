import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook, WebhookVerificationError } from '../src/index.js';
import { NodeCryptoProvider, signWebhookSync, verifyWebhookSync } from '../src/node.js';
import { OPENSSL_VECTORS, paymentCompleted, PREVIOUS_SECRET, PRIMARY_SECRET, SIGNED_AT } from './helpers/fixtures.js';

describe('@fundkit/webhooks/node', () => {
  it('signWebhookSync equals signWebhook', async () => {
    const options = { timestamp: SIGNED_AT };
    const secrets = [PRIMARY_SECRET, PREVIOUS_SECRET];
    expect(signWebhookSync(paymentCompleted, secrets, options)).toEqual(await signWebhook(paymentCompleted, secrets, options));
  });

  it('verifyWebhookSync returns the event synchronously', () => {
    const { body, headers } = signWebhookSync(paymentCompleted, PRIMARY_SECRET, { timestamp: SIGNED_AT });
    expect(verifyWebhookSync(Buffer.from(body), headers, PRIMARY_SECRET, { now: SIGNED_AT })).toEqual(paymentCompleted);
  });

  it('verifyWebhookSync throws the same reasons', () => {
    const { body, headers } = signWebhookSync(paymentCompleted, PRIMARY_SECRET, { timestamp: SIGNED_AT });
    const verify = (): unknown => verifyWebhookSync(body, headers, PRIMARY_SECRET, { now: SIGNED_AT + 301 });
    expect(verify).toThrow(WebhookVerificationError);
    expect(verify).toThrow(expect.objectContaining({ reason: 'timestamp_outside_tolerance' }));
  });

  it('verifyWebhookSync with requireTimestamp refuses V1 alone (its fast path too)', () => {
    const { body, headers } = signWebhookSync(paymentCompleted, PRIMARY_SECRET, { timestamp: SIGNED_AT });
    const v1Only = { 'Service-Signature': headers['Service-Signature'] };
    expect(verifyWebhookSync(body, v1Only, PRIMARY_SECRET, { now: SIGNED_AT })).toEqual(paymentCompleted);
    expect(() => verifyWebhookSync(body, v1Only, PRIMARY_SECRET, { now: SIGNED_AT, requireTimestamp: true }))
      .toThrow(expect.objectContaining({ reason: 'missing_timestamp' }));
    expect(verifyWebhookSync(body, headers, PRIMARY_SECRET, { now: SIGNED_AT, requireTimestamp: true })).toEqual(paymentCompleted);
  });

  it('NodeCryptoProvider can back the async API and matches openssl', async () => {
    const cryptoProvider = new NodeCryptoProvider();
    const { headers, body } = await signWebhook(paymentCompleted, PRIMARY_SECRET, { timestamp: SIGNED_AT, cryptoProvider });
    expect(headers['Service-Signature']).toBe(`sha256=${OPENSSL_VECTORS[PRIMARY_SECRET].v1}`);
    await expect(verifyWebhook(body, headers, PRIMARY_SECRET, { now: SIGNED_AT, cryptoProvider })).resolves.toBeDefined();
  });
});
