/** Signature verification ops/s: @fundkit/webhooks vs stripe's constructEvent. On Node, '@fundkit/webhooks' resolves to its node:crypto build (the "node" export condition). */
import { signWebhook, verifyWebhook } from '@fundkit/webhooks';
import { verifyWebhookSync } from '@fundkit/webhooks/node';
import Stripe from 'stripe';
import { median, RUNS } from './lib.js';

const SECRET = 'whsec_benchSecret0123456789abcdef';
const RUN_MS = 1_000;
const SLICE_MS = 50;

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

/** Runs `op` for about `ms`; returns how many calls completed and the time they took. */
async function timed(op: () => unknown | Promise<unknown>, ms: number): Promise<{ n: number; ms: number }> {
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < ms) {
    // batches of 100 keep the clock reads out of the measurement
    for (let i = 0; i < 100; i++) await op();
    n += 100;
  }
  return { n, ms: performance.now() - start };
}

/**
 * ops/s of every verifier, the median of RUNS runs of RUN_MS each. Within a run the verifiers take turns
 * in SLICE_MS slices, so load from other processes on the machine lands on all of them alike rather
 * than on whichever was running at the time; each slice starts the turn one verifier later, so none
 * always inherits the same predecessor's garbage.
 */
async function interleaved<K extends string>(ops: Record<K, () => unknown | Promise<unknown>>): Promise<Record<K, number>> {
  const names = Object.keys(ops) as K[];
  const values = {} as Record<K, number[]>;
  for (let r = 0; r < RUNS; r++) {
    const calls = {} as Record<K, number>;
    const ms = {} as Record<K, number>;
    for (let slice = 0; slice < RUN_MS / SLICE_MS; slice++) {
      for (let turn = 0; turn < names.length; turn++) {
        const name = names[(slice + turn) % names.length]!;
        const t = await timed(ops[name], SLICE_MS);
        calls[name] = (calls[name] ?? 0) + t.n;
        ms[name] = (ms[name] ?? 0) + t.ms;
      }
    }
    for (const name of names) (values[name] ??= []).push(calls[name] / (ms[name] / 1000));
  }
  const medians = {} as Record<K, number>;
  for (const name of names) medians[name] = median(values[name]);
  return medians;
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
  const figures = await interleaved({
    fundkitAsync: () => verifyWebhook(body, headers, SECRET),
    fundkitSync: () => verifyWebhookSync(body, headers, SECRET),
    stripe: () => stripe.webhooks.constructEvent(body, stripeHeader, SECRET),
    stripeAsync: () => stripe.webhooks.constructEventAsync(body, stripeHeader, SECRET),
  });
  return { bytes: Buffer.byteLength(body), ...figures };
}
