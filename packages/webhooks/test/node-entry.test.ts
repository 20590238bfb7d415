import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { hmacSha256Hex } from '../src/crypto/node-crypto-provider.js';
import * as nodeExpress from '../src/express.node.js';
import * as neutralExpress from '../src/express.js';
import * as nodeEntry from '../src/index.node.js';
import * as neutral from '../src/index.js';
import { verifyWebhookSync } from '../src/node.js';
import { paymentCompleted, PREVIOUS_SECRET, PRIMARY_SECRET, SIGNED_AT } from './helpers/fixtures.js';

const at = { now: SIGNED_AT };
afterEach(() => vi.restoreAllMocks());

describe('the "node" export condition', () => {
  const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as {
    exports: Record<string, { node: { import: { default: string }; require: { default: string } } }>;
  };

  it('resolves the main and express entries to the node:crypto builds, before import/require', () => {
    expect(Object.keys(pkg.exports['.']!)[0]).toBe('node');
    expect(pkg.exports['.']!.node.import.default).toBe('./dist/index.node.js');
    expect(pkg.exports['.']!.node.require.default).toBe('./dist/index.node.cjs');
    expect(pkg.exports['./express']!.node.import.default).toBe('./dist/express.node.js');
  });

  it('exports the same names with the same types as the neutral entries', () => {
    expect(Object.keys(nodeEntry).sort()).toEqual(Object.keys(neutral).sort());
    expect(Object.keys(nodeExpress).sort()).toEqual(Object.keys(neutralExpress).sort());
    expectTypeOf(nodeEntry.verifyWebhook).toEqualTypeOf(neutral.verifyWebhook);
    expectTypeOf(nodeEntry.signWebhook).toEqualTypeOf(neutral.signWebhook);
    expectTypeOf(nodeEntry.createWebhookHandler).toEqualTypeOf(neutral.createWebhookHandler);
    expectTypeOf(nodeExpress.fundkitWebhooks).toEqualTypeOf(neutralExpress.fundkitWebhooks);
  });
});

describe('Node entry: node:crypto without asking, Web Crypto only when given', () => {
  it('signs and verifies without touching Web Crypto', async () => {
    const importKey = vi.spyOn(globalThis.crypto.subtle, 'importKey');
    const sign = vi.spyOn(globalThis.crypto.subtle, 'sign');
    const { body, headers } = await nodeEntry.signWebhook(paymentCompleted, PRIMARY_SECRET, { timestamp: SIGNED_AT });
    await expect(nodeEntry.verifyWebhook(body, headers, PRIMARY_SECRET, at)).resolves.toEqual(paymentCompleted);
    const handler = nodeEntry.createWebhookHandler({ secret: PRIMARY_SECRET, ...at });
    await expect(handler(new Request('https://merchant.example/webhooks', { method: 'POST', headers, body }))).resolves.toEqual(paymentCompleted);
    expect(importKey).not.toHaveBeenCalled();
    expect(sign).not.toHaveBeenCalled();
  });

  it('rejects (never throws synchronously) with the same reasons', async () => {
    const { body, headers } = await nodeEntry.signWebhook(paymentCompleted, PRIMARY_SECRET, { timestamp: SIGNED_AT });
    const pending = nodeEntry.verifyWebhook(body, headers, PRIMARY_SECRET, { now: SIGNED_AT + 301 });
    await expect(pending).rejects.toMatchObject({ reason: 'timestamp_outside_tolerance' });
    await expect(nodeEntry.verifyWebhook({} as string, headers, PRIMARY_SECRET)).rejects.toMatchObject({ reason: 'body_not_raw' });
  });

  it('uses a cryptoProvider when one is given', async () => {
    const cryptoProvider = new neutral.SubtleCryptoProvider();
    const compute = vi.spyOn(cryptoProvider, 'computeHmacSha256Hex');
    const signed = await nodeEntry.signWebhook(paymentCompleted, PRIMARY_SECRET, { timestamp: SIGNED_AT, cryptoProvider });
    await nodeEntry.verifyWebhook(signed.body, signed.headers, PRIMARY_SECRET, { ...at, cryptoProvider });
    expect(compute).toHaveBeenCalledTimes(4);
  });

  it('the neutral entry still verifies through Web Crypto', async () => {
    const sign = vi.spyOn(globalThis.crypto.subtle, 'sign');
    const { body, headers } = await neutral.signWebhook(paymentCompleted, PRIMARY_SECRET, { timestamp: SIGNED_AT });
    await expect(neutral.verifyWebhook(body, headers, PRIMARY_SECRET, at)).resolves.toEqual(paymentCompleted);
    expect(sign).toHaveBeenCalled();
  });
});

describe('hmacSha256Hex (RFC 2104 over the one-shot hash) equals createHmac', () => {
  const secrets = [PRIMARY_SECRET, 'whsec_🔑 non-ASCII', `whsec_${'k'.repeat(64)}`, 'x'.repeat(64), 'k'];
  const messages = ['', '{"a":"€ 🚀"}', 'lone \uD800 surrogate', 'x'.repeat(5000)];

  it.each(secrets)('secret %j, strings and bytes, with and without a prefix', (secret) => {
    for (const message of messages) {
      const bytes = new TextEncoder().encode(message);
      const expected = createHmac('sha256', secret).update(bytes).digest('hex');
      expect(hmacSha256Hex(secret, message)).toBe(expected);
      expect(hmacSha256Hex(secret, bytes)).toBe(expected);
      const prefixed = createHmac('sha256', secret).update(`1735689600.${message}`).digest('hex');
      expect(hmacSha256Hex(secret, message, '1735689600.')).toBe(prefixed);
      expect(hmacSha256Hex(secret, bytes, '1735689600.')).toBe(prefixed);
    }
  });
});

/** The outcome of a verification: the event, or the reason it failed. */
async function outcome(run: () => unknown): Promise<unknown> {
  try {
    return { event: await run() };
  } catch (error) {
    return { reason: (error as { reason?: string }).reason ?? String(error) };
  }
}

describe('verifyWebhookSync decides exactly as the Web Crypto verifier', () => {
  it('on genuine, tampered, rotated, re-encoded and malformed deliveries', async () => {
    const one = await neutral.signWebhook(paymentCompleted, PRIMARY_SECRET, { timestamp: SIGNED_AT });
    const both = await neutral.signWebhook(paymentCompleted, [PRIMARY_SECRET, PREVIOUS_SECRET], { timestamp: SIGNED_AT });
    const odd = await neutral.signWebhook('\uFEFF{"id":"evt_1","type":"x","note":"\uD800"}', PRIMARY_SECRET, { timestamp: SIGNED_AT });
    const v2 = one.headers['Service-Signature-V2'];
    const upper = { ...one.headers, 'Service-Signature': one.headers['Service-Signature'].toUpperCase().replace('SHA256', 'sha256') };
    const cases: Array<[unknown, Record<string, string | string[]>, string | string[], object?]> = [
      [one.body, one.headers, PRIMARY_SECRET],
      [Buffer.from(one.body), one.headers, PRIMARY_SECRET],
      [one.body, upper, PRIMARY_SECRET],
      [one.body.replace('12.5', '13.5'), one.headers, PRIMARY_SECRET],
      [one.body, one.headers, 'whsec_wrong'],
      [both.body, both.headers, [PREVIOUS_SECRET, PRIMARY_SECRET]],
      [both.body, both.headers, PREVIOUS_SECRET],
      [both.body, { 'service-signature': [both.headers['Service-Signature'], 'sha256=' + '0'.repeat(64)] }, PRIMARY_SECRET],
      [one.body, { ...one.headers, 'Service-Signature-V2': ` t=${SIGNED_AT} , v1=${one.headers['Service-Signature-V2'].split('v1=')[1]} ` }, PRIMARY_SECRET],
      [one.body, { ...one.headers, 'Service-Webhook-Timestamp': '1' }, PRIMARY_SECRET],
      [one.body, { ...one.headers, 'Service-Signature-V2': 'v1=' + 'a'.repeat(64) }, PRIMARY_SECRET],
      [one.body, { 'Service-Signature': 'sha256=abc' }, PRIMARY_SECRET],
      [one.body, {}, PRIMARY_SECRET],
      [one.body, one.headers, ''],
      [one.body, one.headers, PRIMARY_SECRET, { now: SIGNED_AT + 301 }],
      [odd.body, odd.headers, PRIMARY_SECRET],
      [new TextEncoder().encode(odd.body), odd.headers, PRIMARY_SECRET],
      [new Uint8Array([0xff, 0x7b]), one.headers, PRIMARY_SECRET],
      [{ parsed: true }, one.headers, PRIMARY_SECRET],
      // shapes verifyWebhookSync's position-based shortcut (quickPlan) splits but must not decide alone
      [one.body, { ...one.headers, 'Service-Signature-V2': v2.toUpperCase().replace('T=', 't=').replace('V1=', 'v1=') }, PRIMARY_SECRET],
      [one.body, { ...one.headers, 'Service-Signature-V2': v2.replace('t=', 't=0') }, PRIMARY_SECRET],
      [one.body, { ...one.headers, 'Service-Signature-V2': v2.replace(`t=${SIGNED_AT}`, `t=${SIGNED_AT / 1e9}e9`) }, PRIMARY_SECRET],
      [one.body, { ...one.headers, 'Service-Signature-V2': v2.replace(/v1=.{64}/, `v1=${'z'.repeat(64)}`) }, PRIMARY_SECRET],
      [one.body, { ...one.headers, 'Service-Signature': `sha256=${'g'.repeat(64)}` }, PRIMARY_SECRET],
      [one.body, { ...one.headers, 'Service-Signature': `sha256=${'g'.repeat(64)}`, 'Service-Webhook-Timestamp': '1' }, PRIMARY_SECRET],
      [one.body, { ...one.headers, 'Service-Signature': `sha256=${'0'.repeat(64)}`, 'Service-Webhook-Timestamp': ' 1 ' }, PRIMARY_SECRET],
      [one.body, { ...one.headers, 'Service-Webhook-Timestamp': ` ${SIGNED_AT} ` }, PRIMARY_SECRET],
      [one.body, { 'Service-Signature': one.headers['Service-Signature'] }, PRIMARY_SECRET],
      [one.body, { 'Service-Signature': one.headers['Service-Signature'] }, 'whsec_wrong'],
      [one.body, one.headers, PRIMARY_SECRET, { now: SIGNED_AT, toleranceSeconds: -1 }],
    ];
    for (const [body, headers, secrets, options = at] of cases) {
      const expected = await outcome(() => neutral.verifyWebhook(body as string, headers, secrets, options));
      expect(await outcome(() => verifyWebhookSync(body as string, headers, secrets, options))).toEqual(expected);
      expect(await outcome(() => nodeEntry.verifyWebhook(body as string, headers, secrets, options))).toEqual(expected);
    }
  });
});
