// `@fundkit/webhooks/node`: synchronous verification and signing through `node:crypto`.
import { hmacSha256Hex, NodeCryptoProvider } from './crypto/node-crypto-provider.js';
import type { WebhookEvent } from './events.js';
import type { WebhookHeaders } from './internal/headers.js';
import type { RawBody } from './internal/raw-body.js';
import type { WebhookSecrets } from './internal/secrets.js';
import { planSigning, signedWebhook, type SignedWebhook, type SignWebhookOptions } from './signing.js';
import { completeVerification, planVerification, type VerifyWebhookOptions } from './verification.js';

export { NodeCryptoProvider };

/**
 * {@link verifyWebhook}, synchronously, for Node (and Bun): same checks, same errors.
 * @throws {@link WebhookVerificationError}
 */
export function verifyWebhookSync(
  rawBody: RawBody,
  headers: WebhookHeaders,
  secrets: WebhookSecrets,
  options: VerifyWebhookOptions = {},
): WebhookEvent {
  const plan = planVerification(rawBody, headers, secrets, options);
  // The digests in hmacJobs order, hashed from the body as given (no UTF-8 copy, no `t.` + body concatenation).
  const digests = plan.secrets.map((secret) => hmacSha256Hex(secret, plan.body));
  if (plan.v2) {
    const prefix = `${plan.v2.timestamp}.`;
    for (const secret of plan.secrets) digests.push(hmacSha256Hex(secret, plan.body, prefix));
  }
  return completeVerification(plan, digests);
}

/** {@link signWebhook}, synchronously, for Node (and Bun). */
export function signWebhookSync(
  payload: string | object,
  secrets: WebhookSecrets,
  options: SignWebhookOptions = {},
): SignedWebhook {
  const plan = planSigning(payload, secrets, options);
  const digests = plan.jobs.map((job) => hmacSha256Hex(job.secret, job.message));
  return signedWebhook(plan, digests);
}
