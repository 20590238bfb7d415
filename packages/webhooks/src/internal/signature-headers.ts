import { WebhookVerificationError } from '../errors.js';

export const SIGNATURE_HEADER = 'Service-Signature';
export const SIGNATURE_V2_HEADER = 'Service-Signature-V2';
export const WEBHOOK_ID_HEADER = 'Service-Webhook-Id';
export const WEBHOOK_TIMESTAMP_HEADER = 'Service-Webhook-Timestamp';
export const WEBHOOK_ATTEMPT_HEADER = 'Service-Webhook-Attempt';

const HEX_DIGEST = /^[0-9a-fA-F]{64}$/;
const UNIX_SECONDS = /^\d{1,12}$/;
/**
 * What Fundkit sends outside a rotation. One regular expression checks these shapes at once; the
 * general parsers below would return the same and cost ~1 µs of a ~7 µs verification.
 */
const PLAIN_V1 = /^sha256=([0-9a-fA-F]{64})$/;
const PLAIN_V2 = /^t=(\d{1,12}),v1=([0-9a-fA-F]{64})$/;

/** The signed timestamp and candidate digests of `Service-Signature-V2`. */
export interface SignatureV2 {
  timestamp: number;
  digests: string[];
}

function malformed(header: string, detail: string): WebhookVerificationError {
  return new WebhookVerificationError('malformed_signature', `${header} header is malformed: ${detail}`);
}

/** `scheme=value` pairs of a comma-separated header; spaces around items are ignored. */
function keyValuePairs(header: string, value: string): Array<[string, string]> {
  return value.split(',').map((item) => {
    const trimmed = item.trim();
    const equals = trimmed.indexOf('=');
    if (equals <= 0) throw malformed(header, `expected key=value items, got "${trimmed}"`);
    return [trimmed.slice(0, equals), trimmed.slice(equals + 1)];
  });
}

function checkedDigest(header: string, digest: string): string {
  if (!HEX_DIGEST.test(digest)) throw malformed(header, 'a signature is not 64 hexadecimal characters');
  return digest.toLowerCase();
}

/**
 * Digests of `Service-Signature: sha256=<hex>`. Repeated header lines (one per secret during a
 * rotation) arrive joined by commas, so every `sha256=` item is a candidate.
 */
export function parseSignatureV1(value: string): string[] {
  const plain = PLAIN_V1.exec(value);
  if (plain) return [plain[1]!.toLowerCase()];
  const digests = keyValuePairs(SIGNATURE_HEADER, value)
    .filter(([scheme]) => scheme === 'sha256')
    .map(([, digest]) => checkedDigest(SIGNATURE_HEADER, digest));
  if (digests.length === 0) throw malformed(SIGNATURE_HEADER, 'expected sha256=<hex>');
  return digests;
}

/** `t=<unix seconds>,v1=<hex>[,v1=<hex>…]`; unknown schemes are skipped for forward compatibility. */
export function parseSignatureV2(value: string): SignatureV2 {
  const plain = PLAIN_V2.exec(value);
  if (plain) return { timestamp: Number(plain[1]), digests: [plain[2]!.toLowerCase()] };
  const pairs = keyValuePairs(SIGNATURE_V2_HEADER, value);
  const timestamps = pairs.filter(([key]) => key === 't').map(([, t]) => t);
  if (timestamps.length === 0) {
    throw new WebhookVerificationError('missing_timestamp', `${SIGNATURE_V2_HEADER} header has no t=<unix seconds>`);
  }
  const [timestamp] = timestamps;
  if (timestamps.length > 1 || timestamp === undefined || !UNIX_SECONDS.test(timestamp)) {
    throw malformed(SIGNATURE_V2_HEADER, 't must appear once, as whole Unix seconds');
  }
  const digests = pairs
    .filter(([key]) => key === 'v1')
    .map(([, digest]) => checkedDigest(SIGNATURE_V2_HEADER, digest));
  if (digests.length === 0) throw malformed(SIGNATURE_V2_HEADER, 'expected at least one v1=<hex>');
  return { timestamp: Number(timestamp), digests };
}

/**
 * The digest of `sha256=<64 characters>`, by position, not checked for hex; undefined for any other
 * shape. Only for a caller that accepts it solely when it equals a computed (lowercase hex) digest,
 * and otherwise asks {@link parseSignatureV1}.
 */
export function splitPlainV1(value: string): string | undefined {
  return value.length === 71 && value.startsWith('sha256=') ? value.slice(7) : undefined;
}

/** {@link splitPlainV1} for `t=<seconds>,v1=<64 characters>`, the same caveat for its digest. */
export function splitPlainV2(value: string): SignatureV2 | undefined {
  const comma = value.indexOf(',');
  if (comma < 3 || comma > 14 || value.length !== comma + 68 || !value.startsWith('t=') || !value.startsWith(',v1=', comma)) return undefined;
  const t = value.slice(2, comma);
  const timestamp = Number(t);
  // Written as String writes a whole number (no sign, exponent, space or leading zero), t has 1–12 digits.
  if (!Number.isInteger(timestamp) || timestamp < 0 || String(timestamp) !== t) return undefined;
  return { timestamp, digests: [value.slice(comma + 4)] };
}
