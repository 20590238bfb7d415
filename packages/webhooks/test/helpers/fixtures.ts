import type { PaymentEvent } from '../../src/index.js';

export const PRIMARY_SECRET = 'whsec_test_primary';
export const PREVIOUS_SECRET = 'whsec_test_previous';
/** 2025-01-01T00:00:00Z */
export const SIGNED_AT = 1735689600;

export const paymentCompleted: PaymentEvent = {
  id: 'evt_01JD0000000000000000000001',
  object: 'event',
  type: 'payment.completed',
  created_at: '2025-01-01T00:00:00.000Z',
  livemode: false,
  data: {
    payment_id: 'fi_01JD0000000000000000000000',
    amount: 12.5,
    currency: 'USDC',
    settlement_amount: 12.5,
    settlement_asset: 'USDC',
    stellar_txn_hash: null,
    metadata: { order: 'ø-42' },
    funding_intent_id: 'fi_01JD0000000000000000000000',
    status: 'SETTLED',
    reference: 'order-42',
    amount_decimal: '12.5000000',
    settlement_amount_decimal: '12.5000000',
  },
};

/** `JSON.stringify(paymentCompleted)`, spelled out so the vectors below do not depend on our code. */
export const PAYMENT_COMPLETED_BODY =
  '{"id":"evt_01JD0000000000000000000001","object":"event","type":"payment.completed","created_at":"2025-01-01T00:00:00.000Z","livemode":false,"data":{"payment_id":"fi_01JD0000000000000000000000","amount":12.5,"currency":"USDC","settlement_amount":12.5,"settlement_asset":"USDC","stellar_txn_hash":null,"metadata":{"order":"ø-42"},"funding_intent_id":"fi_01JD0000000000000000000000","status":"SETTLED","reference":"order-42","amount_decimal":"12.5000000","settlement_amount_decimal":"12.5000000"}}';

/**
 * Digests made by OpenSSL, independently of this package:
 *   printf '%s' "$BODY"               | openssl dgst -sha256 -hmac "$SECRET" -r   (v1)
 *   printf '%s' "1735689600.$BODY"    | openssl dgst -sha256 -hmac "$SECRET" -r   (v2)
 * test/vectors.test.ts recomputes them with /usr/bin/openssl when it is installed.
 */
export const OPENSSL_VECTORS = {
  [PRIMARY_SECRET]: {
    v1: '9d415b6e2bc939b37bb21575b3573104bf8c3d1af36352c3f206a7cbdefa62bd',
    v2: 'fb9f05046066408b9247ccb42d6511d3447a6514757961f64bc3a80c2185b212',
  },
  [PREVIOUS_SECRET]: {
    v1: 'c252b6c94af565f8d86ac28b46ada43a4d954c0af0f0eaf959737cf8f7e3c857',
    v2: 'cdee21a4c6f22bc5618905c5a902d7c06579138ed071822d0d0547ca2d2b792e',
  },
} as const;
