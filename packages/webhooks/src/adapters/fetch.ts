import type { WebhookEvent } from '../events.js';
import { verifyWebhook } from '../verify.js';
import { adapterSecrets, type WebhookAdapterOptions } from './options.js';

/** Verifies a Fetch `Request` and resolves to its event; rejects with `WebhookVerificationError`. */
export type FetchWebhookHandler = (request: Request) => Promise<WebhookEvent>;

/** {@link createWebhookHandler} over a given verifier, so the Node entry can use its node:crypto one. */
export function fetchHandlerWith(verify: typeof verifyWebhook, options: WebhookAdapterOptions): FetchWebhookHandler {
  const secrets = adapterSecrets(options);
  return async (request) => verify(await request.text(), request.headers, secrets, options);
}

/**
 * A verifier for Fetch-API runtimes: Next.js route handlers, Hono, Cloudflare Workers, Bun, Deno.
 * It reads the body with `request.text()`, so hand it the untouched request.
 *
 * @example
 * ```ts
 * const verify = createWebhookHandler({ secret: process.env.FUNDKIT_WEBHOOK_SECRET! });
 * export async function POST(request: Request) {
 *   try {
 *     const event = await verify(request);
 *     return Response.json({ received: true });
 *   } catch (error) {
 *     if (error instanceof WebhookVerificationError) return Response.json({ error: error.reason }, { status: 400 });
 *     throw error;
 *   }
 * }
 * ```
 */
export function createWebhookHandler(options: WebhookAdapterOptions): FetchWebhookHandler {
  return fetchHandlerWith(verifyWebhook, options);
}
