import { WebhookVerificationError } from '../errors.js';

/** The body exactly as it arrived. Anything parsed has lost the bytes the signature covers. */
export type RawBody = string | Uint8Array | ArrayBuffer | ArrayBufferView;

export const RAW_BODY_HELP = [
  'The signature covers the exact bytes Fundkit sent; parsed and re-serialised JSON differs',
  '(key order, spacing, number formats), so verification needs the raw body:',
  "  - Express: app.post('/webhooks', express.raw({ type: 'application/json' }), handler) and pass",
  "    req.body (a Buffer), or use fundkitWebhooks() from '@fundkit/webhooks/express'.",
  '    Register it before any app.use(express.json()), or that parser consumes the body first.',
  '  - Next.js route handler: const rawBody = await request.text()',
  '  - Hono: const rawBody = await c.req.text()',
  "  - Fastify: fastify.addContentTypeParser('application/json', { parseAs: 'buffer' },",
  '    (req, body, done) => done(null, body)) and pass request.body, or the rawBody option of',
  '    the fastify-raw-body plugin and pass request.rawBody.',
].join('\n');

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return `a ${typeof value}`;
  return `a parsed ${Array.isArray(value) ? 'array' : 'object'}`;
}

/**
 * The body as received: a string stays a string (node:crypto hashes it without a copy to bytes),
 * anything else becomes a Uint8Array view. Else a `body_not_raw` error that says how to get the raw body.
 */
export function rawBodyInput(body: unknown): string | Uint8Array {
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return body; // Node's Buffer is a Uint8Array.
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  throw new WebhookVerificationError(
    'body_not_raw',
    `Webhook body must be the raw request body (string, Buffer, Uint8Array or ArrayBuffer), ` +
      `but received ${describe(body)}.\n${RAW_BODY_HELP}`,
  );
}
