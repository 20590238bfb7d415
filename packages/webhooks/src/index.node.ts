// `@fundkit/webhooks` under the "node" export condition (Node, Bun, Deno): the API of index.ts,
// with node:crypto behind the async functions. Browsers and edge runtimes resolve index.ts.
import { fetchHandlerWith, type FetchWebhookHandler } from './adapters/fetch.js';
import type { WebhookAdapterOptions } from './adapters/options.js';
import { verifyWebhook } from './node-async.js';

// Names exported here take precedence over the same names from `export *`.
export * from './index.js';
export { signWebhook, verifyWebhook } from './node-async.js';

export function createWebhookHandler(options: WebhookAdapterOptions): FetchWebhookHandler {
  return fetchHandlerWith(verifyWebhook, options);
}
