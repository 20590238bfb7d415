// The async API with node:crypto as its default, for the package's "node" export condition
// (index.node.ts, express.node.ts). Through Web Crypto a verification cost ~10× one through
// node:crypto (importKey/sign promises, byte copies); there Node users get the fast path unasked.
import type { WebhookEvent } from './events.js';
import type { WebhookHeaders } from './internal/headers.js';
import type { RawBody } from './internal/raw-body.js';
import type { WebhookSecrets } from './internal/secrets.js';
import { signWebhookSync, verifyWebhookSync } from './node.js';
import { signWebhook as signWithProvider, type SignWebhookAsyncOptions } from './sign.js';
import type { SignedWebhook } from './signing.js';
import { verifyWebhook as verifyWithProvider, type VerifyWebhookAsyncOptions } from './verify.js';

/** {@link verifyWithProvider | verifyWebhook}; node:crypto unless `options.cryptoProvider` is given. */
export async function verifyWebhook(
  rawBody: RawBody,
  headers: WebhookHeaders,
  secrets: WebhookSecrets,
  options: VerifyWebhookAsyncOptions = {},
): Promise<WebhookEvent> {
  if (options.cryptoProvider) return verifyWithProvider(rawBody, headers, secrets, options);
  // inside an async function, so failures still arrive as rejections, as from the Web Crypto path
  return verifyWebhookSync(rawBody, headers, secrets, options);
}

/** {@link signWithProvider | signWebhook}; node:crypto unless `options.cryptoProvider` is given. */
export async function signWebhook(
  payload: string | object,
  secrets: WebhookSecrets,
  options: SignWebhookAsyncOptions = {},
): Promise<SignedWebhook> {
  if (options.cryptoProvider) return signWithProvider(payload, secrets, options);
  return signWebhookSync(payload, secrets, options);
}
