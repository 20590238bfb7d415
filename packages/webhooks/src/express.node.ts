// `@fundkit/webhooks/express` under the "node" export condition: the middleware verifies through node:crypto.
import { expressMiddlewareWith, type WebhookMiddleware } from './adapters/express.js';
import type { WebhookAdapterOptions } from './adapters/options.js';
import { verifyWebhook } from './node-async.js';

// Names exported here take precedence over the same names from `export *`.
export * from './express.js';

export function fundkitWebhooks(options: WebhookAdapterOptions): WebhookMiddleware {
  return expressMiddlewareWith(verifyWebhook, options);
}
