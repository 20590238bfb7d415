import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook } from '../src/index.js';
import {
  OPENSSL_VECTORS,
  PAYMENT_COMPLETED_BODY,
  paymentCompleted,
  PREVIOUS_SECRET,
  PRIMARY_SECRET,
  SIGNED_AT,
} from './helpers/fixtures.js';
import { hasOpenssl, opensslHmacHex } from './helpers/openssl.js';

const primary = OPENSSL_VECTORS[PRIMARY_SECRET];
const previous = OPENSSL_VECTORS[PREVIOUS_SECRET];

describe('independent vectors (openssl dgst -sha256 -hmac)', () => {
  it.skipIf(!hasOpenssl)('the committed vectors are what openssl computes', () => {
    for (const [secret, vector] of Object.entries(OPENSSL_VECTORS)) {
      expect(opensslHmacHex(secret, PAYMENT_COMPLETED_BODY)).toBe(vector.v1);
      expect(opensslHmacHex(secret, `${SIGNED_AT}.${PAYMENT_COMPLETED_BODY}`)).toBe(vector.v2);
    }
  });

  it('the fixture body is JSON.stringify of the fixture event', () => {
    expect(JSON.stringify(paymentCompleted)).toBe(PAYMENT_COMPLETED_BODY);
  });

  it('signWebhook produces the openssl digests in the documented header format', async () => {
    const { body, headers } = await signWebhook(paymentCompleted, PRIMARY_SECRET, { timestamp: SIGNED_AT });
    expect(body).toBe(PAYMENT_COMPLETED_BODY);
    expect(headers).toEqual({
      'Content-Type': 'application/json',
      'Service-Signature': `sha256=${primary.v1}`,
      'Service-Signature-V2': `t=${SIGNED_AT},v1=${primary.v2}`,
      'Service-Webhook-Id': paymentCompleted.id,
      'Service-Webhook-Timestamp': String(SIGNED_AT),
      'Service-Webhook-Attempt': '1',
    });
  });

  it('signWebhook sends one v1 per secret during a rotation, and V1 by the first secret', async () => {
    const { headers } = await signWebhook(paymentCompleted, [PRIMARY_SECRET, PREVIOUS_SECRET], { timestamp: SIGNED_AT });
    expect(headers['Service-Signature']).toBe(`sha256=${primary.v1}`);
    expect(headers['Service-Signature-V2']).toBe(`t=${SIGNED_AT},v1=${primary.v2},v1=${previous.v2}`);
  });

  it('signWebhook headers match the patterns of spec/openapi.yaml, with and without rotation', async () => {
    for (const secrets of [PRIMARY_SECRET, [PRIMARY_SECRET, PREVIOUS_SECRET]]) {
      const { headers } = await signWebhook(paymentCompleted, secrets, { attempt: 3 });
      expect(headers['Service-Signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect(headers['Service-Signature-V2']).toMatch(/^t=\d+(,v1=[0-9a-f]{64})+$/);
      expect(headers['Service-Webhook-Timestamp']).toMatch(/^\d+$/);
      expect(headers['Service-Webhook-Attempt']).toBe('3');
    }
  });

  it('verifyWebhook accepts headers built by hand from the openssl digests', async () => {
    const headers = { 'Service-Signature': `sha256=${primary.v1}`, 'Service-Signature-V2': `t=${SIGNED_AT},v1=${primary.v2}` };
    const event = await verifyWebhook(PAYMENT_COMPLETED_BODY, headers, PRIMARY_SECRET, { now: SIGNED_AT });
    expect(event).toEqual(paymentCompleted);
  });

  it.skipIf(!hasOpenssl)('matches openssl on arbitrary bytes, including non-ASCII and invalid UTF-8', async () => {
    const bodies = [new Uint8Array([0xff, 0xfe, 0x00, 0x7b]), new TextEncoder().encode('{"a":"€ 🚀"}'), new Uint8Array()];
    for (const body of bodies) {
      const digest = opensslHmacHex('whsec_🔑 spaced', body);
      const verified = verifyWebhook(body, { 'service-signature': `sha256=${digest}` }, 'whsec_🔑 spaced');
      // Past the signature check (no signature_mismatch): only the event parsing objects to these bodies.
      await expect(verified).rejects.toMatchObject({ reason: expect.stringMatching(/^invalid_(json|event)$/) });
    }
  });
});
