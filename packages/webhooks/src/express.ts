// `@fundkit/webhooks/express`: Express middleware. Types only from express; no runtime dependency.
export {
  fundkitWebhooks,
  type WebhookMiddleware,
  type WebhookRequest,
  type WebhookResponse,
} from './adapters/express.js';
export type { WebhookAdapterOptions } from './adapters/options.js';
