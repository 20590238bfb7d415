import type { CryptoProvider } from './crypto/crypto-provider.js';
import { defaultCryptoProvider } from './crypto/subtle-crypto-provider.js';
import type { WebhookEvent } from './events.js';
import type { WebhookHeaders } from './internal/headers.js';
import type { RawBody } from './internal/raw-body.js';
import type { WebhookSecrets } from './internal/secrets.js';
import { completeVerification, hmacJobs, planVerification, type VerifyWebhookOptions } from './verification.js';

/** Options of {@link verifyWebhook}. */
export interface VerifyWebhookAsyncOptions extends VerifyWebhookOptions {
  /** Where HMACs come from. Default: Web Crypto. */
  cryptoProvider?: CryptoProvider;
}

/**
 * Verifies a Fundkit webhook delivery and returns its typed event.
 *
 * Always checks `Service-Signature: sha256=<hex>` (HMAC-SHA256 of the raw body). When
 * `Service-Signature-V2: t=…,v1=…` is present it also checks that (HMAC of `${t}.${body}`, any
 * `v1` may match) and refuses a `t` more than `toleranceSeconds` from now, in either direction.
 *
 * @param rawBody - the body exactly as received (string, Buffer, Uint8Array, ArrayBuffer); never parsed JSON.
 * @param headers - the request headers: Fetch `Headers` or a plain object such as Node's `req.headers`.
 * @param secrets - the endpoint secret (`whsec_…`), or several during a rotation.
 * @throws {@link WebhookVerificationError} with a `reason` code when anything does not check out.
 * @example
 * ```ts
 * const event = await verifyWebhook(await request.text(), request.headers, process.env.FUNDKIT_WEBHOOK_SECRET!);
 * if (isEventType(event, 'payment.completed')) fulfil(event.data.payment_id);
 * ```
 */
export async function verifyWebhook(
  rawBody: RawBody,
  headers: WebhookHeaders,
  secrets: WebhookSecrets,
  options: VerifyWebhookAsyncOptions = {},
): Promise<WebhookEvent> {
  const plan = planVerification(rawBody, headers, secrets, options);
  const provider = options.cryptoProvider ?? defaultCryptoProvider();
  const digests = await Promise.all(hmacJobs(plan).map((job) => provider.computeHmacSha256Hex(job.secret, job.message)));
  return completeVerification(plan, digests);
}
