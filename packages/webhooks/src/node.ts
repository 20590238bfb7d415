// `@fundkit/webhooks/node`: synchronous verification and signing through `node:crypto`.
import { hmacSha256Hex, NodeCryptoProvider } from './crypto/node-crypto-provider.js';
import type { WebhookEvent } from './events.js';
import type { WebhookHeaders } from './internal/headers.js';
import type { RawBody } from './internal/raw-body.js';
import type { WebhookSecrets } from './internal/secrets.js';
import { planSigning, signedWebhook, type SignedWebhook, type SignWebhookOptions } from './signing.js';
import {
  acceptSigned,
  completeVerification,
  mismatchedHeader,
  planVerification,
  quickPlan,
  type VerificationPlan,
  type VerifyWebhookOptions,
} from './verification.js';

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
  const quick = quickPlan(rawBody, headers, secrets, options);
  let digests: string[] | undefined;
  if (quick) {
    digests = nodeDigests(quick);
    if (!mismatchedHeader(quick, digests)) return acceptSigned(quick);
  }
  const plan = planVerification(rawBody, headers, secrets, options);
  // A plan that parses has quick's secret, body and t, so quick's digests are its digests too.
  return completeVerification(plan, digests ?? nodeDigests(plan));
}

/** The digests in hmacJobs order, hashed from the body as given (no UTF-8 copy, no `t.` + body concatenation). */
function nodeDigests({ body, secrets, v2 }: VerificationPlan): string[] {
  const digests: string[] = [];
  for (const secret of secrets) digests.push(hmacSha256Hex(secret, body));
  if (v2) {
    const prefix = `${v2.timestamp}.`;
    for (const secret of secrets) digests.push(hmacSha256Hex(secret, body, prefix));
  }
  return digests;
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
