import { WebhookVerificationError } from './errors.js';
import type { WebhookEvent } from './events.js';
import { concatBytes, decodeUtf8Strict, signedText, utf8Bytes } from './internal/bytes.js';
import { headerNames, readHeaders, type WebhookHeaders } from './internal/headers.js';
import { rawBodyInput } from './internal/raw-body.js';
import { secretList } from './internal/secrets.js';
import { secureCompare } from './internal/secure-compare.js';
import {
  parseSignatureV1,
  parseSignatureV2,
  SIGNATURE_HEADER,
  SIGNATURE_V2_HEADER,
  splitPlainV1,
  splitPlainV2,
  WEBHOOK_TIMESTAMP_HEADER,
  type SignatureV2,
} from './internal/signature-headers.js';
import { currentUnixSeconds, toUnixSeconds, type UnixSecondsOrDate } from './internal/time.js';

/** Replays older (or clock skew newer) than this many seconds are refused. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** Options shared by every verifier. */
export interface VerifyWebhookOptions {
  /** How far `t` of `Service-Signature-V2` may be from now, both ways. Default 300; `Infinity` disables. */
  toleranceSeconds?: number;
  /** The current time, as a Date or Unix seconds (not milliseconds). Default: the system clock. */
  now?: UnixSecondsOrDate;
  /**
   * Refuse a delivery without `Service-Signature-V2` (`missing_timestamp`). Fundkit always sends it;
   * without this option a delivery whose V2 header was stripped verifies on `Service-Signature`
   * alone, which has no timestamp, so a captured delivery could be replayed. Default false: the
   * signature INTERFACE.md requires is `Service-Signature` alone.
   */
  requireTimestamp?: boolean;
}

/** One HMAC the verifier needs: computed sync or async, then handed back in order. */
export interface HmacJob {
  secret: string;
  message: Uint8Array;
}

/**
 * Everything checkable without crypto has been checked. The digests still needed are v1 of `body`
 * per secret, then (with V2) of `${v2.timestamp}.` + `body` per secret: {@link hmacJobs} as bytes.
 */
export interface VerificationPlan {
  /** As received: a string stays a string, so node:crypto can hash it without a copy. */
  readonly body: string | Uint8Array;
  readonly v1Candidates: string[];
  readonly v2: SignatureV2 | undefined;
  readonly secrets: string[];
  readonly nowSeconds: number;
  readonly toleranceSeconds: number;
}

function checkedTolerance(tolerance: number): number {
  if (typeof tolerance !== 'number' || Number.isNaN(tolerance) || tolerance < 0) {
    throw new TypeError('toleranceSeconds must be a non-negative number of seconds');
  }
  return tolerance;
}

function requireV1Header(value: string | undefined): string {
  if (value === undefined || value.trim() === '') {
    throw new WebhookVerificationError(
      'missing_signature',
      `No ${SIGNATURE_HEADER} header. Is this request from Fundkit, and does your framework or proxy pass the header through?`,
    );
  }
  return value;
}

/** `Service-Webhook-Timestamp` is unsigned, so it only has to agree with the signed `t`. */
function checkTimestampHeaderAgrees(value: string | undefined, v2: SignatureV2): void {
  const header = value?.trim();
  if (header !== undefined && header !== String(v2.timestamp)) {
    throw new WebhookVerificationError(
      'timestamp_mismatch',
      `${WEBHOOK_TIMESTAMP_HEADER} (${header}) differs from t=${v2.timestamp} in ${SIGNATURE_V2_HEADER}`,
    );
  }
}

const HEADER_NAMES = headerNames([SIGNATURE_HEADER, SIGNATURE_V2_HEADER, WEBHOOK_TIMESTAMP_HEADER]);

/** Validates inputs and headers, and lists the HMACs to compute: v1 per secret, then v2 per secret. */
export function planVerification(
  rawBody: unknown,
  headers: WebhookHeaders,
  secrets: unknown,
  options: VerifyWebhookOptions = {},
): VerificationPlan {
  const secretsToTry = secretList(secrets);
  const toleranceSeconds = checkedTolerance(options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS);
  const nowSeconds = options.now === undefined ? currentUnixSeconds() : toUnixSeconds(options.now, 'now');
  const body = rawBodyInput(rawBody);
  const [v1Header, v2Header, timestampHeader] = headers ? readHeaders(headers, HEADER_NAMES) : [];
  const v1Candidates = parseSignatureV1(requireV1Header(v1Header));
  const v2 = v2Header === undefined ? undefined : parseSignatureV2(v2Header);
  if (v2) checkTimestampHeaderAgrees(timestampHeader, v2);
  else if (options.requireTimestamp) {
    throw new WebhookVerificationError(
      'missing_timestamp',
      `No ${SIGNATURE_V2_HEADER} header, and requireTimestamp is set: a delivery without its timestamped signature may be a replay`,
    );
  }
  return { body, v1Candidates, v2, secrets: secretsToTry, nowSeconds, toleranceSeconds };
}

/**
 * {@link planVerification} for what Fundkit sends outside a rotation (one secret, `sha256=<hex>`, and
 * `t=<seconds>,v1=<hex>` or no V2), split by position: the general parsers' regular expressions and
 * arrays cost ~10% of a verification. Its digests are unchecked, so only a match with the computed
 * digests may be accepted; on a mismatch, plan again with planVerification, which decides and words
 * every error. Undefined for any other shape.
 */
export function quickPlan(
  rawBody: unknown,
  headers: WebhookHeaders,
  secrets: unknown,
  options: VerifyWebhookOptions,
): VerificationPlan | undefined {
  if (typeof secrets !== 'string' || secrets === '' || !headers) return undefined;
  // planVerification's checks in its order, so they throw as there
  const toleranceSeconds = checkedTolerance(options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS);
  const nowSeconds = options.now === undefined ? currentUnixSeconds() : toUnixSeconds(options.now, 'now');
  const body = rawBodyInput(rawBody);
  const [v1Header, v2Header, timestampHeader] = readHeaders(headers, HEADER_NAMES);
  const v1 = v1Header === undefined ? undefined : splitPlainV1(v1Header);
  const v2 = v2Header === undefined ? undefined : splitPlainV2(v2Header);
  if (v1 === undefined || (v2Header !== undefined && !v2) || (options.requireTimestamp && !v2)) return undefined;
  if (v2 && timestampHeader !== undefined && timestampHeader.trim() !== String(v2.timestamp)) return undefined;
  return { body, v1Candidates: [v1], v2, secrets: [secrets], nowSeconds, toleranceSeconds };
}

/** The HMACs a plan needs, as bytes for a CryptoProvider: v1 per secret, then v2 per secret. */
export function hmacJobs(plan: VerificationPlan): HmacJob[] {
  const body = typeof plan.body === 'string' ? utf8Bytes(plan.body) : plan.body;
  const jobs = plan.secrets.map((secret) => ({ secret, message: body }));
  if (plan.v2) {
    const signedPayload = concatBytes(utf8Bytes(`${plan.v2.timestamp}.`), body);
    jobs.push(...plan.secrets.map((secret) => ({ secret, message: signedPayload })));
  }
  return jobs;
}

/** Whether any expected digest equals any candidate; every comparison is constant-time. */
function anyMatches(expected: string[], from: number, to: number, candidates: string[]): boolean {
  for (let i = from; i < to; i++) {
    for (const candidate of candidates) if (secureCompare(expected[i]!, candidate)) return true;
  }
  return false;
}

function mismatch(header: string): WebhookVerificationError {
  return new WebhookVerificationError(
    'signature_mismatch',
    `${header} does not match the body for any of the given secrets. Check that the secret belongs ` +
      'to this endpoint (and environment), and that nothing altered the body before verification.',
  );
}

function checkTolerance(plan: VerificationPlan, v2: SignatureV2): void {
  const skew = plan.nowSeconds - v2.timestamp;
  if (Math.abs(skew) > plan.toleranceSeconds) {
    const direction = skew > 0 ? `${skew} s in the past` : `${-skew} s in the future`;
    throw new WebhookVerificationError(
      'timestamp_outside_tolerance',
      `${SIGNATURE_V2_HEADER} timestamp is ${direction}, beyond the ${plan.toleranceSeconds} s ` +
        'tolerance: a replayed delivery, or a clock that is off (check NTP).',
    );
  }
}

function parseEvent(body: string | Uint8Array): WebhookEvent {
  let event: unknown;
  try {
    event = JSON.parse(typeof body === 'string' ? signedText(body) : decodeUtf8Strict(body));
  } catch {
    throw new WebhookVerificationError('invalid_json', 'The signature matched but the body is not valid UTF-8 JSON.');
  }
  const candidate = event as { id?: unknown; type?: unknown } | null;
  if (typeof candidate !== 'object' || candidate === null || typeof candidate.type !== 'string' || typeof candidate.id !== 'string') {
    throw new WebhookVerificationError('invalid_event', 'The signature matched but the body is not an event object with an id and a type.');
  }
  return event as WebhookEvent;
}

/** Which signature header none of the computed digests (in {@link hmacJobs} order) matches, if any. */
export function mismatchedHeader(plan: VerificationPlan, digests: string[]): string | undefined {
  const secretCount = plan.secrets.length;
  if (!anyMatches(digests, 0, secretCount, plan.v1Candidates)) return SIGNATURE_HEADER;
  if (plan.v2 && !anyMatches(digests, secretCount, digests.length, plan.v2.digests)) return SIGNATURE_V2_HEADER;
  return undefined;
}

/** Once the signatures match: the timestamp must be within tolerance, and the body an event. */
export function acceptSigned(plan: VerificationPlan): WebhookEvent {
  if (plan.v2) checkTolerance(plan, plan.v2);
  return parseEvent(plan.body);
}

/** Checks the computed digests (in {@link hmacJobs} order), the timestamp, and parses the event. */
export function completeVerification(plan: VerificationPlan, digests: string[]): WebhookEvent {
  const failed = mismatchedHeader(plan, digests);
  if (failed) throw mismatch(failed);
  return acceptSigned(plan);
}
