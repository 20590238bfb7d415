// `@fundkit/webhooks/node`: synchronous verification and signing through `node:crypto`.
import { NodeCryptoProvider } from './crypto/node-crypto-provider.js';
import type { WebhookEvent } from './events.js';
import type { WebhookHeaders } from './internal/headers.js';
import type { RawBody } from './internal/raw-body.js';
import type { WebhookSecrets } from './internal/secrets.js';
import { planSigning, signedWebhook, type SignedWebhook, type SignWebhookOptions } from './signing.js';
import { completeVerification, planVerification, type VerifyWebhookOptions } from './verification.js';

export { NodeCryptoProvider };

const nodeCrypto = new NodeCryptoProvider();

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
  const digests = plan.jobs.map((job) => nodeCrypto.computeHmacSha256HexSync(job.secret, job.message));
  return completeVerification(plan, digests);
}

/** {@link signWebhook}, synchronously, for Node (and Bun). */
export function signWebhookSync(
  payload: string | object,
  secrets: WebhookSecrets,
  options: SignWebhookOptions = {},
): SignedWebhook {
  const plan = planSigning(payload, secrets, options);
  const digests = plan.jobs.map((job) => nodeCrypto.computeHmacSha256HexSync(job.secret, job.message));
  return signedWebhook(plan, digests);
}
