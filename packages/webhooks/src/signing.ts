import { utf8Bytes, concatBytes, randomHex } from './internal/bytes.js';
import { secretList } from './internal/secrets.js';
import {
  SIGNATURE_HEADER,
  SIGNATURE_V2_HEADER,
  WEBHOOK_ID_HEADER,
  WEBHOOK_ATTEMPT_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
} from './internal/signature-headers.js';
import { currentUnixSeconds, toUnixSeconds, type UnixSecondsOrDate } from './internal/time.js';
import type { HmacJob } from './verification.js';

/** Options of {@link signWebhook}. */
export interface SignWebhookOptions {
  /** The signing time, as a Date or Unix seconds. Default: now. */
  timestamp?: UnixSecondsOrDate;
  /** `Service-Webhook-Id`. Default: the payload's `id` when it has one, else a fresh `evt_…`. */
  id?: string;
  /** `Service-Webhook-Attempt`, counted from 1. Default 1. */
  attempt?: number;
}

/** The headers a Fundkit server sends with a delivery. A plain record, usable as Fetch `HeadersInit`. */
export type SignedWebhookHeaders = {
  'Content-Type': 'application/json';
  'Service-Signature': string;
  'Service-Signature-V2': string;
  'Service-Webhook-Id': string;
  'Service-Webhook-Timestamp': string;
  'Service-Webhook-Attempt': string;
};

/** A signed delivery: send `body` byte for byte with `headers`. */
export interface SignedWebhook {
  body: string;
  headers: SignedWebhookHeaders;
}

export interface SigningPlan {
  body: string;
  id: string;
  timestamp: number;
  attempt: number;
  /** v1 of the first secret, then v2 per secret. */
  jobs: HmacJob[];
}

function deliveryId(payload: unknown, id: string | undefined): string {
  if (id !== undefined) return id;
  const payloadId = (payload as { id?: unknown } | null)?.id;
  return typeof payloadId === 'string' ? payloadId : `evt_${randomHex(16)}`;
}

export function planSigning(payload: string | object, secrets: unknown, options: SignWebhookOptions = {}): SigningPlan {
  const secretsToUse = secretList(secrets);
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const timestamp = options.timestamp === undefined ? currentUnixSeconds() : toUnixSeconds(options.timestamp, 'timestamp');
  const parsedPayload = typeof payload === 'string' ? safeParse(payload) : payload;
  const bodyBytes = utf8Bytes(body);
  const v2Message = concatBytes(utf8Bytes(`${timestamp}.`), bodyBytes);
  const [primarySecret] = secretsToUse as [string, ...string[]];
  const jobs = [
    { secret: primarySecret, message: bodyBytes },
    ...secretsToUse.map((secret) => ({ secret, message: v2Message })),
  ];
  const attempt = options.attempt ?? 1;
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError('attempt must be a whole number from 1');
  return { body, id: deliveryId(parsedPayload, options.id), timestamp, attempt, jobs };
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * `Service-Signature` holds exactly one `sha256=<hex>` (the spec's pattern), made with the first
 * secret; during a rotation `Service-Signature-V2` carries one `v1` per secret.
 */
export function signedWebhook(plan: SigningPlan, digests: string[]): SignedWebhook {
  const [v1Digest, ...v2Digests] = digests;
  const v2 = v2Digests.map((digest) => `v1=${digest}`);
  return {
    body: plan.body,
    headers: {
      'Content-Type': 'application/json',
      [SIGNATURE_HEADER]: `sha256=${v1Digest}`,
      [SIGNATURE_V2_HEADER]: [`t=${plan.timestamp}`, ...v2].join(','),
      [WEBHOOK_ID_HEADER]: plan.id,
      [WEBHOOK_TIMESTAMP_HEADER]: String(plan.timestamp),
      [WEBHOOK_ATTEMPT_HEADER]: String(plan.attempt),
    } as SignedWebhookHeaders,
  };
}
