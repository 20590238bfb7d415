import { WebhookVerificationError } from '../errors.js';
import type { WebhookEvent } from '../events.js';
import { concatBytes, utf8Bytes } from '../internal/bytes.js';
import { verifyWebhook } from '../verify.js';
import { adapterSecrets, type WebhookAdapterOptions } from './options.js';

declare global {
  // Merges with @types/express so `req.fundkitEvent` is typed in the handlers after the middleware.
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The verified event, set by `fundkitWebhooks()`. */
      fundkitEvent?: WebhookEvent;
    }
  }
}

/** What the middleware uses of an Express (or bare Node `http`) request; no dependency on express. */
export interface WebhookRequest extends AsyncIterable<unknown> {
  headers: Record<string, string | string[] | undefined>;
  body?: unknown;
  /** Set by some body parsers' `verify` hooks (and Fastify/Nest raw-body options). */
  rawBody?: unknown;
  readableEnded?: boolean;
  fundkitEvent?: WebhookEvent;
}

export interface WebhookResponse {
  status(code: number): WebhookResponse;
  json(body: unknown): unknown;
}

export type WebhookMiddleware = (req: WebhookRequest, res: WebhookResponse, next: (error?: unknown) => void) => Promise<void>;

function isRaw(body: unknown): body is string | Uint8Array {
  return typeof body === 'string' || body instanceof Uint8Array;
}

function isEmptyObject(body: unknown): boolean {
  return typeof body === 'object' && body !== null && Object.keys(body).length === 0;
}

async function readStream(req: WebhookRequest): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of req) chunks.push(typeof chunk === 'string' ? utf8Bytes(chunk) : (chunk as Uint8Array));
  return concatBytes(...chunks);
}

/**
 * The raw body: already read by `express.raw()`/`express.text()` or a `rawBody` hook, or read
 * here from the stream when no parser ran. A parsed object is returned as is, so the verifier
 * reports `body_not_raw` with instructions.
 */
async function rawBodyOf(req: WebhookRequest): Promise<unknown> {
  if (isRaw(req.body)) return req.body;
  if (isRaw(req.rawBody)) return req.rawBody;
  // Express 4's json() leaves `{}` without reading a non-JSON stream; Express 5 leaves undefined.
  const streamUnread = req.readableEnded === false;
  if (streamUnread && (req.body === undefined || isEmptyObject(req.body))) return readStream(req);
  return req.body;
}

/** {@link fundkitWebhooks} over a given verifier, so the Node entry can use its node:crypto one. */
export function expressMiddlewareWith(verify: typeof verifyWebhook, options: WebhookAdapterOptions): WebhookMiddleware {
  const secrets = adapterSecrets(options);
  return async (req, res, next) => {
    try {
      req.fundkitEvent = await verify((await rawBodyOf(req)) as Uint8Array, req.headers, secrets, options);
    } catch (error) {
      if (!(error instanceof WebhookVerificationError) || error.isConfigurationError) return next(error);
      res.status(400).json({ error: { type: 'webhook_verification_error', code: error.reason, message: error.message } });
      return;
    }
    next();
  };
}

/**
 * Express middleware that verifies Fundkit webhooks. On success it sets `req.fundkitEvent`
 * and calls `next()`; on a bad request it answers 400 `{ error: { type, code, message } }`;
 * a configuration mistake (body already parsed) goes to `next(error)`, so it surfaces as a 500.
 *
 * @example
 * ```ts
 * app.post('/webhooks', fundkitWebhooks({ secret: process.env.FUNDKIT_WEBHOOK_SECRET! }), (req, res) => {
 *   const event = req.fundkitEvent!;
 *   res.json({ received: true });
 * });
 * ```
 */
export function fundkitWebhooks(options: WebhookAdapterOptions): WebhookMiddleware {
  return expressMiddlewareWith(verifyWebhook, options);
}
