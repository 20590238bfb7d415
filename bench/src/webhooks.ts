/** Signature verification ops/s: @fundkit/webhooks vs stripe's constructEvent. On Node, '@fundkit/webhooks' resolves to its node:crypto build (the "node" export condition). */
import { signWebhook, verifyWebhook } from '@fundkit/webhooks';
import { verifyWebhookSync } from '@fundkit/webhooks/node';
import Stripe from 'stripe';
import { median, RUNS } from './lib.js';

const SECRET = 'whsec_benchSecret0123456789abcdef';
const RUN_MS = 1_000;

/** A ~1 KB event, the size of a real payment event. */
function payload(): string {
  const event = {
    id: 'evt_01JBENCH0000000000000000000', object: 'event', type: 'payment.completed', created_at: new Date().toISOString(), livemode: false,
    data: { payment_id: 'fi_01JBENCH0000000000000000000', funding_intent_id: 'fi_01JBENCH0000000000000000000', status: 'SETTLED', amount: 25, amount_decimal: '25.0000000',
      currency: 'USDC', settlement_amount: 25, settlement_amount_decimal: '25.0000000', settlement_asset: 'USDC', reference: 'order-1234',
      stellar_txn_hash: 'a'.repeat(64), metadata: { order_id: '1234', customer: 'cus_123', note: 'x'.repeat(400) } },
  };
  return JSON.stringify(event);
}

async function opsPerSecond(op: () => unknown | Promise<unknown>): Promise<number> {
  const values: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    let n = 0;
    const start = performance.now();
    while (performance.now() - start < RUN_MS) {
      // batches of 100 keep the clock reads out of the measurement
      for (let i = 0; i < 100; i++) await op();
      n += 100;
    }
    values.push(n / ((performance.now() - start) / 1000));
  }
  return median(values);
}

export interface WebhookFigures { bytes: number; fundkitAsync: number; fundkitSync: number; stripe: number; stripeAsync: number }

export async function benchWebhooks(): Promise<WebhookFigures> {
  const body = payload();
  const signed = await signWebhook(body, SECRET);
  const headers = signed.headers as unknown as Record<string, string>;
  const stripe = new Stripe('sk_test_bench');
  const stripeHeader = stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET });
  // sanity: every verifier accepts its input before it is timed
  await verifyWebhook(body, headers, SECRET);
  verifyWebhookSync(body, headers, SECRET);
  stripe.webhooks.constructEvent(body, stripeHeader, SECRET);
  return {
    bytes: Buffer.byteLength(body),
    fundkitAsync: await opsPerSecond(() => verifyWebhook(body, headers, SECRET)),
    fundkitSync: await opsPerSecond(() => verifyWebhookSync(body, headers, SECRET)),
    stripe: await opsPerSecond(() => stripe.webhooks.constructEvent(body, stripeHeader, SECRET)),
    stripeAsync: await opsPerSecond(() => stripe.webhooks.constructEventAsync(body, stripeHeader, SECRET)),
  };
}
