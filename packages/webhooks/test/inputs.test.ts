import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook, type SignedWebhook } from '../src/index.js';
import { expectRejection } from './helpers/expect-reason.js';
import { paymentCompleted, PRIMARY_SECRET, SIGNED_AT } from './helpers/fixtures.js';

const at = { now: SIGNED_AT };
const signed = (): Promise<SignedWebhook> => signWebhook(paymentCompleted, PRIMARY_SECRET, { timestamp: SIGNED_AT });

describe('verifyWebhook: body forms', () => {
  it.each([
    ['a string', (body: string) => body],
    ['a Buffer', (body: string) => Buffer.from(body)],
    ['a Uint8Array', (body: string) => new TextEncoder().encode(body)],
    ['an ArrayBuffer', (body: string) => new TextEncoder().encode(body).buffer],
    ['a view at an offset into a larger buffer', (body: string) => Buffer.from(`xx${body}yy`).subarray(2, -2)],
    ['a DataView', (body: string) => new DataView(new TextEncoder().encode(body).buffer)],
  ])('accepts %s', async (_, toBody) => {
    const { body, headers } = await signed();
    await expect(verifyWebhook(toBody(body), headers, PRIMARY_SECRET, at)).resolves.toEqual(paymentCompleted);
  });

  it('refuses a parsed object and says how to get the raw body in each framework', async () => {
    const { headers } = await signed();
    const parsed = JSON.parse(JSON.stringify(paymentCompleted)) as object;
    // @ts-expect-error -- TypeScript already refuses a parsed object; JavaScript callers still need the message.
    const verification = verifyWebhook(parsed, headers, PRIMARY_SECRET, at);
    const error = await expectRejection(verification, 'body_not_raw');
    expect(error.isConfigurationError).toBe(true);
    expect(error.message).toContain('received a parsed object');
    expect(error.message).toContain("express.raw({ type: 'application/json' })");
    expect(error.message).toContain('await request.text()');
    expect(error.message).toContain('await c.req.text()');
    expect(error.message).toContain("parseAs: 'buffer'");
    expect(error.message).toContain('rawBody');
  });

  it.each([[undefined], [null], [42]])('refuses %j as a body', async (body) => {
    const { headers } = await signed();
    await expectRejection(verifyWebhook(body as unknown as string, headers, PRIMARY_SECRET, at), 'body_not_raw');
  });
});

describe('verifyWebhook: header forms', () => {
  it('accepts a Fetch Headers object', async () => {
    const { body, headers } = await signed();
    await expect(verifyWebhook(body, new Headers(headers), PRIMARY_SECRET, at)).resolves.toBeDefined();
  });

  it('accepts a plain object with names in any case', async () => {
    const { body, headers } = await signed();
    const oddCase = {
      'SERVICE-SIGNATURE': headers['Service-Signature'],
      'service-signature-v2': headers['Service-Signature-V2'],
      'sErViCe-WeBhOoK-tImEsTaMp': headers['Service-Webhook-Timestamp'],
    };
    await expect(verifyWebhook(body, oddCase, PRIMARY_SECRET, at)).resolves.toBeDefined();
  });

  it('joins a header given under several spellings, and skips other names of the same length', async () => {
    const { body, headers } = await signed();
    const spellings = {
      'transfer-encoding': 'chunked',
      'Service-Signature': `sha256=${'0'.repeat(64)}`,
      'SERVICE-SIGNATURE': headers['Service-Signature'],
      'service-signature-v2': headers['Service-Signature-V2'],
    };
    await expect(verifyWebhook(body, spellings, PRIMARY_SECRET, at)).resolves.toBeDefined();
    const { 'SERVICE-SIGNATURE': _, ...withoutGood } = spellings;
    await expectRejection(verifyWebhook(body, withoutGood, PRIMARY_SECRET, at), 'signature_mismatch');
  });

  it('accepts string[] values, as Node gives for repeated headers', async () => {
    const { body, headers } = await signed();
    const arrays = { 'service-signature': [headers['Service-Signature']], 'service-signature-v2': [headers['Service-Signature-V2']] };
    await expect(verifyWebhook(body, arrays, PRIMARY_SECRET, at)).resolves.toBeDefined();
  });

  it('tolerates spaces after commas in the V2 header', async () => {
    const { body, headers } = await signed();
    const spaced = { ...headers, 'Service-Signature-V2': headers['Service-Signature-V2'].replaceAll(',', ', ') };
    await expect(verifyWebhook(body, spaced, PRIMARY_SECRET, at)).resolves.toBeDefined();
  });

  it('ignores unknown V2 schemes (forward compatibility)', async () => {
    const { body, headers } = await signed();
    const extended = { ...headers, 'Service-Signature-V2': `${headers['Service-Signature-V2']},v2=future` };
    await expect(verifyWebhook(body, extended, PRIMARY_SECRET, at)).resolves.toBeDefined();
  });

  it('treats an empty Service-Signature as missing', async () => {
    const { body } = await signed();
    await expectRejection(verifyWebhook(body, new Headers({ 'Service-Signature': '' }), PRIMARY_SECRET, at), 'missing_signature');
  });
});

describe('signWebhook', () => {
  it('signs a string payload as is, and takes the id from it', async () => {
    const body = '{"id":"evt_str","type":"webhook.test"}';
    const result = await signWebhook(body, PRIMARY_SECRET, { timestamp: new Date(SIGNED_AT * 1000) });
    expect(result.body).toBe(body);
    expect(result.headers['Service-Webhook-Id']).toBe('evt_str');
    expect(result.headers['Service-Webhook-Timestamp']).toBe(String(SIGNED_AT));
  });

  it('uses an explicit id, or makes an evt_ id when the payload has none', async () => {
    expect((await signWebhook({}, PRIMARY_SECRET, { id: 'wd_1' })).headers['Service-Webhook-Id']).toBe('wd_1');
    expect((await signWebhook('[]', PRIMARY_SECRET)).headers['Service-Webhook-Id']).toMatch(/^evt_[0-9a-f]{32}$/);
  });

  it('refuses to sign without a secret', async () => {
    await expectRejection(signWebhook({}, []), 'no_secret');
  });

  it('its headers work as Fetch HeadersInit', async () => {
    const { headers } = await signed();
    expect(new Headers(headers).get('service-signature')).toBe(headers['Service-Signature']);
  });
});
