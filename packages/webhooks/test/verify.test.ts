import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook, type SignedWebhook } from '../src/index.js';
import { expectRejection } from './helpers/expect-reason.js';
import { paymentCompleted, PREVIOUS_SECRET, PRIMARY_SECRET, SIGNED_AT } from './helpers/fixtures.js';

const at = { now: SIGNED_AT };

function signed(secrets: string | string[] = PRIMARY_SECRET, timestamp = SIGNED_AT): Promise<SignedWebhook> {
  return signWebhook(paymentCompleted, secrets, { timestamp });
}

describe('verifyWebhook: signatures', () => {
  it('returns the parsed event for a genuine delivery', async () => {
    const { body, headers } = await signed();
    await expect(verifyWebhook(body, headers, PRIMARY_SECRET, at)).resolves.toEqual(paymentCompleted);
  });

  it('refuses a tampered body', async () => {
    const { body, headers } = await signed();
    const tampered = body.replace('"amount":12.5', '"amount":1250');
    const error = await expectRejection(verifyWebhook(tampered, headers, PRIMARY_SECRET, at), 'signature_mismatch');
    expect(error.message).toContain('Service-Signature does not match');
  });

  it('refuses a body altered by a single whitespace', async () => {
    const { body, headers } = await signed();
    await expectRejection(verifyWebhook(`${body}\n`, headers, PRIMARY_SECRET, at), 'signature_mismatch');
  });

  it('refuses the wrong secret', async () => {
    const { body, headers } = await signed();
    await expectRejection(verifyWebhook(body, headers, 'whsec_wrong', at), 'signature_mismatch');
  });

  it('checks Service-Signature even when V2 is valid', async () => {
    const { body, headers } = await signed();
    const forgedV1 = { ...headers, 'Service-Signature': `sha256=${'0'.repeat(64)}` };
    await expectRejection(verifyWebhook(body, forgedV1, PRIMARY_SECRET, at), 'signature_mismatch');
  });

  it('checks Service-Signature-V2 when present, even when V1 is valid', async () => {
    const { body, headers } = await signed();
    const forgedV2 = { ...headers, 'Service-Signature-V2': `t=${SIGNED_AT},v1=${'a'.repeat(64)}` };
    const error = await expectRejection(verifyWebhook(body, forgedV2, PRIMARY_SECRET, at), 'signature_mismatch');
    expect(error.message).toContain('Service-Signature-V2');
  });

  it('refuses a replay with a moved t (V2 covers the timestamp)', async () => {
    const { body, headers } = await signed();
    const v1 = headers['Service-Signature-V2'].split(',')[1];
    const moved = { 'Service-Signature': headers['Service-Signature'], 'Service-Signature-V2': `t=${SIGNED_AT + 60},${v1}` };
    await expectRejection(verifyWebhook(body, moved, PRIMARY_SECRET, at), 'signature_mismatch');
  });

  it('accepts V1 alone (the signature INTERFACE.md requires) without a timestamp check', async () => {
    const { body, headers } = await signed();
    const v1Only = { 'Service-Signature': headers['Service-Signature'] };
    await expect(verifyWebhook(body, v1Only, PRIMARY_SECRET, { now: SIGNED_AT + 86_400 })).resolves.toEqual(paymentCompleted);
  });

  it('refuses V1 alone with requireTimestamp (a replay with V2 stripped), and still accepts V1 with V2', async () => {
    const { body, headers } = await signed();
    const v1Only = { 'Service-Signature': headers['Service-Signature'] };
    const error = await expectRejection(verifyWebhook(body, v1Only, PRIMARY_SECRET, { now: SIGNED_AT, requireTimestamp: true }), 'missing_timestamp');
    expect(error.message).toContain('Service-Signature-V2');
    await expect(verifyWebhook(body, headers, PRIMARY_SECRET, { now: SIGNED_AT, requireTimestamp: true })).resolves.toEqual(paymentCompleted);
  });

  it('accepts uppercase hex', async () => {
    const { body, headers } = await signed();
    const upper = { 'Service-Signature': headers['Service-Signature'].replace(/[0-9a-f]{64}/, (hex) => hex.toUpperCase()) };
    await expect(verifyWebhook(body, upper, PRIMARY_SECRET, at)).resolves.toBeDefined();
  });
});

describe('verifyWebhook: secret rotation', () => {
  it('accepts a rotating delivery for a receiver holding both secrets, or only the new one', async () => {
    const { body, headers } = await signed([PRIMARY_SECRET, PREVIOUS_SECRET]);
    await expect(verifyWebhook(body, headers, [PRIMARY_SECRET, PREVIOUS_SECRET], at)).resolves.toBeDefined();
    await expect(verifyWebhook(body, headers, [PREVIOUS_SECRET, PRIMARY_SECRET], at)).resolves.toBeDefined();
    await expect(verifyWebhook(body, headers, PRIMARY_SECRET, at)).resolves.toBeDefined();
  });

  it('accepts any matching v1, not only the first', async () => {
    const byPrevious = await signed(PREVIOUS_SECRET);
    const rotating = await signed([PRIMARY_SECRET, PREVIOUS_SECRET]);
    const headers = { ...rotating.headers, 'Service-Signature': byPrevious.headers['Service-Signature'] };
    expect(headers['Service-Signature-V2'].split(',v1=')).toHaveLength(3);
    await expect(verifyWebhook(rotating.body, headers, PREVIOUS_SECRET, at)).resolves.toBeDefined();
  });

  it('still checks Service-Signature: one sha256 by the newest secret fails a receiver holding only the old one', async () => {
    const { body, headers } = await signed([PRIMARY_SECRET, PREVIOUS_SECRET]);
    const error = await expectRejection(verifyWebhook(body, headers, PREVIOUS_SECRET, at), 'signature_mismatch');
    expect(error.message).toContain('Service-Signature does not match');
  });

  it('accepts when any of several receiver secrets matches', async () => {
    const { body, headers } = await signed(PREVIOUS_SECRET);
    await expect(verifyWebhook(body, headers, ['whsec_new_not_yet_used', PREVIOUS_SECRET], at)).resolves.toBeDefined();
  });

  it('accepts repeated Service-Signature lines (a string[] or joined by commas, as Node and Fetch do)', async () => {
    const byPrimary = await signed(PRIMARY_SECRET);
    const byPrevious = await signed(PREVIOUS_SECRET);
    const lines = [byPrimary.headers['Service-Signature'], byPrevious.headers['Service-Signature']];
    const v1Only = (value: string | string[]) => ({ 'Service-Signature': value });
    await expect(verifyWebhook(byPrimary.body, v1Only(lines), PREVIOUS_SECRET, at)).resolves.toBeDefined();
    await expect(verifyWebhook(byPrimary.body, new Headers(lines.map((line) => ['Service-Signature', line])), PREVIOUS_SECRET, at)).resolves.toBeDefined();
  });

  it('refuses when no secret matches', async () => {
    const { body, headers } = await signed([PRIMARY_SECRET, PREVIOUS_SECRET]);
    await expectRejection(verifyWebhook(body, headers, ['whsec_x', 'whsec_y'], at), 'signature_mismatch');
  });
});

describe('verifyWebhook: timestamp tolerance', () => {
  it.each([
    ['exactly 300 s old', SIGNED_AT + 300],
    ['exactly 300 s ahead', SIGNED_AT - 300],
  ])('accepts a delivery %s', async (_, now) => {
    const { body, headers } = await signed();
    await expect(verifyWebhook(body, headers, PRIMARY_SECRET, { now })).resolves.toBeDefined();
  });

  it('refuses an expired delivery (a replay)', async () => {
    const { body, headers } = await signed();
    const error = await expectRejection(verifyWebhook(body, headers, PRIMARY_SECRET, { now: SIGNED_AT + 301 }), 'timestamp_outside_tolerance');
    expect(error.message).toContain('301 s in the past');
  });

  it('refuses a delivery from the future', async () => {
    const { body, headers } = await signed();
    const error = await expectRejection(verifyWebhook(body, headers, PRIMARY_SECRET, { now: SIGNED_AT - 301 }), 'timestamp_outside_tolerance');
    expect(error.message).toContain('301 s in the future');
  });

  it('honours toleranceSeconds and a Date for now', async () => {
    const { body, headers } = await signed();
    const now = new Date((SIGNED_AT + 10) * 1000);
    await expectRejection(verifyWebhook(body, headers, PRIMARY_SECRET, { now, toleranceSeconds: 5 }), 'timestamp_outside_tolerance');
    await expect(verifyWebhook(body, headers, PRIMARY_SECRET, { now, toleranceSeconds: 10 })).resolves.toBeDefined();
  });

  it('uses the system clock by default', async () => {
    const { body, headers } = await signWebhook(paymentCompleted, PRIMARY_SECRET);
    await expect(verifyWebhook(body, headers, PRIMARY_SECRET)).resolves.toBeDefined();
  });

  it('refuses milliseconds passed as now, naming the mistake', async () => {
    const { body, headers } = await signed();
    await expect(verifyWebhook(body, headers, PRIMARY_SECRET, { now: Date.now() })).rejects.toThrow(/milliseconds/);
  });

  it('refuses a Service-Webhook-Timestamp that disagrees with t', async () => {
    const { body, headers } = await signed();
    const skewed = { ...headers, 'Service-Webhook-Timestamp': String(SIGNED_AT + 1) };
    await expectRejection(verifyWebhook(body, skewed, PRIMARY_SECRET, at), 'timestamp_mismatch');
  });
});

describe('verifyWebhook: malformed requests', () => {
  it('reports a missing Service-Signature', async () => {
    const { body, headers } = await signed();
    const { 'Service-Signature': _, ...withoutV1 } = headers;
    await expectRejection(verifyWebhook(body, withoutV1, PRIMARY_SECRET, at), 'missing_signature');
  });

  it.each([
    ['no scheme', 'abc'],
    ['another scheme', `sha1=${'a'.repeat(40)}`],
    ['a short digest', 'sha256=abc'],
    ['non-hex', `sha256=${'z'.repeat(64)}`],
  ])('reports a malformed Service-Signature (%s)', async (_, value) => {
    const { body } = await signed();
    await expectRejection(verifyWebhook(body, { 'Service-Signature': value }, PRIMARY_SECRET, at), 'malformed_signature');
  });

  it.each([
    ['no v1', `t=${SIGNED_AT}`],
    ['a non-numeric t', `t=soon,v1=${'a'.repeat(64)}`],
    ['two t', `t=1,t=2,v1=${'a'.repeat(64)}`],
    ['a bad v1', `t=${SIGNED_AT},v1=xyz`],
  ])('reports a malformed Service-Signature-V2 (%s)', async (_, value) => {
    const { body, headers } = await signed();
    const malformed = { 'Service-Signature': headers['Service-Signature'], 'Service-Signature-V2': value };
    await expectRejection(verifyWebhook(body, malformed, PRIMARY_SECRET, at), 'malformed_signature');
  });

  it('reports a V2 header without t as missing_timestamp', async () => {
    const { body, headers } = await signed();
    const noT = { ...headers, 'Service-Signature-V2': `v1=${'a'.repeat(64)}` };
    await expectRejection(verifyWebhook(body, noT, PRIMARY_SECRET, at), 'missing_timestamp');
  });

  it('reports a correctly signed body that is not JSON', async () => {
    const { body, headers } = await signWebhook('not json', PRIMARY_SECRET, { timestamp: SIGNED_AT });
    await expectRejection(verifyWebhook(body, headers, PRIMARY_SECRET, at), 'invalid_json');
  });

  it('reports correctly signed JSON that is not an event', async () => {
    const { body, headers } = await signWebhook([1, 2], PRIMARY_SECRET, { timestamp: SIGNED_AT });
    await expectRejection(verifyWebhook(body, headers, PRIMARY_SECRET, at), 'invalid_event');
  });

  it.each([[undefined], [''], [[]], [['whsec_ok', '']]])('reports no_secret for %j', async (secret) => {
    const { body, headers } = await signed();
    const error = await expectRejection(verifyWebhook(body, headers, secret as string, at), 'no_secret');
    expect(error.isConfigurationError).toBe(true);
    expect(error.message).toContain('FUNDKIT_WEBHOOK_SECRET');
  });
});
