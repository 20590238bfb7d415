import { FundkitError } from '../core/errors.js';
import type { RequestOptions } from '../core/options.js';
import type { Schema } from '../core/types.js';

/** The part of the client the handler needs, so tests can pass a stub. */
export interface ResumeClient {
  checkoutSessions: {
    resume(body: Schema<'ResumeCheckoutSessionRequest'>, options?: RequestOptions): PromiseLike<Schema<'CheckoutSession'>>;
  };
}

export interface ResumeHandlerOptions {
  /**
   * Derives the Idempotency-Key from the request body; default: one fresh key per request. A
   * key tied to the handoff token (the default derivation `resume:<token>` when set to `true`)
   * makes a browser's retry replay the first exchange instead of failing as already used.
   */
  idempotencyKey?: ((body: Schema<'ResumeCheckoutSessionRequest'>) => string) | true | undefined;
}

/** Minimal Express-compatible shapes, so the SDK needs no express types. */
interface ExpressLikeRequest { body?: unknown; on?(event: string, listener: (chunk?: unknown) => void): unknown }
interface ExpressLikeResponse { status(code: number): ExpressLikeResponse; json(body: unknown): unknown; setHeader(name: string, value: string): unknown }

export interface ResumeHandler {
  (request: Request): Promise<Response>;
  /** The same handler as Express middleware (`app.post('/checkout/resume', handler.express)`). */
  express: (req: ExpressLikeRequest, res: ExpressLikeResponse) => Promise<void>;
}

interface Outcome { status: number; body: unknown }

function readBody(value: unknown): Schema<'ResumeCheckoutSessionRequest'> | undefined {
  const body = value as { handoff_token?: unknown; code_verifier?: unknown } | null;
  if (!body || typeof body.handoff_token !== 'string' || body.handoff_token === '') return undefined;
  const verifier = typeof body.code_verifier === 'string' ? body.code_verifier : undefined;
  return verifier ? { handoff_token: body.handoff_token, code_verifier: verifier } : { handoff_token: body.handoff_token };
}

function problem(status: number, code: string, message: string, requestId?: string): Outcome {
  return { status, body: { error: { code, message, ...(requestId ? { request_id: requestId } : {}) } } };
}

/** Only the fields the browser needs; the upstream error is reduced so nothing server-side leaks. */
async function exchange(fk: ResumeClient, input: unknown, options: ResumeHandlerOptions): Promise<Outcome> {
  const body = readBody(input);
  if (!body) return problem(400, 'validation_error', 'handoff_token is required');
  const derive = options.idempotencyKey === true ? (b: typeof body) => `resume:${b.handoff_token}` : options.idempotencyKey;
  try {
    const session = await fk.checkoutSessions.resume(body, derive ? { idempotencyKey: derive(body) } : undefined);
    const { id, session_token, funding_intent_id, expires_at, url } = session;
    return { status: 200, body: { id, object: 'checkout_session', session_token, funding_intent_id, expires_at, url } };
  } catch (error) {
    if (error instanceof FundkitError && error.status) return problem(error.status, error.code.toLowerCase(), error.message, error.requestId);
    return problem(502, 'api_error', 'Could not reach the payment service', error instanceof FundkitError ? error.requestId : undefined);
  }
}

/**
 * A ready merchant endpoint for the widget's resume step: takes `{ handoff_token, code_verifier? }`,
 * exchanges it server-side with the secret key, and answers the session JSON (`id`,
 * `session_token`, `funding_intent_id`, `expires_at`, `url`) or the error's status with a JSON
 * body. The secret key never leaves the server: it is only in the client's Authorization header.
 */
export function createResumeHandler(fk: ResumeClient, options: ResumeHandlerOptions = {}): ResumeHandler {
  const handler = async (request: Request): Promise<Response> => {
    if (request.method !== 'POST') return Response.json(problem(405, 'method_not_allowed', 'Use POST').body, { status: 405, headers: { allow: 'POST' } });
    const input = await request.json().catch(() => undefined);
    const { status, body } = await exchange(fk, input, options);
    return Response.json(body, { status, headers: { 'cache-control': 'no-store' } });
  };
  const express: ResumeHandler['express'] = async (req, res) => {
    const input = req.body !== undefined ? req.body : await readNodeJson(req);
    const { status, body } = await exchange(fk, input, options);
    res.setHeader('cache-control', 'no-store');
    res.status(status).json(body);
  };
  return Object.assign(handler, { express });
}

/** Without `express.json()` the body is still unread on the request stream. */
function readNodeJson(req: ExpressLikeRequest): Promise<unknown> {
  return new Promise((resolve) => {
    if (!req.on) return resolve(undefined);
    let text = '';
    req.on('data', (chunk) => { text += String(chunk); });
    req.on('end', () => { try { resolve(JSON.parse(text)); } catch { resolve(undefined); } });
    req.on('error', () => resolve(undefined));
  });
}
