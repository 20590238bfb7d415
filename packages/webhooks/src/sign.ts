import type { CryptoProvider } from './crypto/crypto-provider.js';
import { defaultCryptoProvider } from './crypto/subtle-crypto-provider.js';
import type { WebhookSecrets } from './internal/secrets.js';
import { planSigning, signedWebhook, type SignedWebhook, type SignWebhookOptions } from './signing.js';

/** Options of {@link signWebhook}. */
export interface SignWebhookAsyncOptions extends SignWebhookOptions {
  /** Where HMACs come from. Default: Web Crypto. */
  cryptoProvider?: CryptoProvider;
}

/**
 * Signs a payload exactly as a Fundkit server does: returns the body string and the
 * `Service-Signature` (one `sha256=`, by the first secret), `Service-Signature-V2` (one `v1` per
 * secret), `Service-Webhook-Id`, `Service-Webhook-Timestamp` and `Service-Webhook-Attempt`
 * headers. For tests of a receiver, and for the server itself.
 *
 * @param payload - the event object (serialised with `JSON.stringify`) or the exact body string.
 * @param secrets - the endpoint secret, or every currently valid secret during a rotation, newest
 *   first (the newest also signs `Service-Signature`).
 * @example
 * ```ts
 * const { body, headers } = await signWebhook({ id: 'evt_1', object: 'event', type: 'webhook.test', … }, secret);
 * await fetch('http://localhost:3000/webhooks', { method: 'POST', headers, body });
 * ```
 */
export async function signWebhook(
  payload: string | object,
  secrets: WebhookSecrets,
  options: SignWebhookAsyncOptions = {},
): Promise<SignedWebhook> {
  const plan = planSigning(payload, secrets, options);
  const provider = options.cryptoProvider ?? defaultCryptoProvider();
  const digests = await Promise.all(plan.jobs.map((job) => provider.computeHmacSha256Hex(job.secret, job.message)));
  return signedWebhook(plan, digests);
}
