// Runtime-neutral entry: Web Crypto only, no `node:` imports.
export { verifyWebhook, type VerifyWebhookAsyncOptions } from './verify.js';
export { signWebhook, type SignWebhookAsyncOptions } from './sign.js';
export { DEFAULT_TOLERANCE_SECONDS, type VerifyWebhookOptions } from './verification.js';
export type { SignWebhookOptions, SignedWebhook, SignedWebhookHeaders } from './signing.js';
export { WebhookVerificationError, type WebhookVerificationReason } from './errors.js';
export {
  SIGNATURE_HEADER,
  SIGNATURE_V2_HEADER,
  WEBHOOK_ATTEMPT_HEADER,
  WEBHOOK_ID_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
} from './internal/signature-headers.js';
export type { WebhookHeaders } from './internal/headers.js';
export type { RawBody } from './internal/raw-body.js';
export type { WebhookSecrets } from './internal/secrets.js';
export type { UnixSecondsOrDate } from './internal/time.js';
export type { CryptoProvider, SyncCryptoProvider } from './crypto/crypto-provider.js';
export { SubtleCryptoProvider } from './crypto/subtle-crypto-provider.js';
export { createWebhookHandler, type FetchWebhookHandler } from './adapters/fetch.js';
export type { WebhookAdapterOptions } from './adapters/options.js';
export {
  isEventType,
  isKnownEventType,
  WEBHOOK_EVENT_TYPES,
  type InvoiceEvent,
  type PaymentEvent,
  type PayoutEvent,
  type RefundEvent,
  type TestEvent,
  type WebhookEvent,
  type WebhookEventOf,
  type WebhookEventType,
} from './events.js';
