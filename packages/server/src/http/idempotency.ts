import { createHash } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Operation } from '../spec/operations.js';
import { ApiError } from './api-error.js';
import { locals, type AuthContext } from './context.js';

/** A stored claim: the reply of a completed request, or a request still running. */
export interface ClaimedKey {
  request_hash: string;
  state: 'in_progress' | 'completed';
  response_status: number | null;
  response_body: string | null;
}

/** What the middleware needs of the key store (IdempotencyService, which owns the retention). */
export interface IdempotencyKeys {
  claim(scope: string, key: string, requestHash: string): Promise<ClaimedKey | null>;
  complete(scope: string, key: string, status: number, body: string | null): Promise<void>;
  release(scope: string, key: string): Promise<void>;
}

/**
 * Keys are scoped to the application and environment (DESIGN §7); other callers to themselves. A
 * checkout session token to its own session: a payer's key never replays another session's reply
 * (a handoff token, a quote accepted for another payer).
 */
function scopeOf(context: AuthContext | undefined): string {
  if (!context) return 'public';
  if (context.kind === 'checkout') return `checkout:${context.sessionId}`;
  if ('application' in context) return `app:${context.application.id}:${context.environment}`;
  if (context.kind === 'account') return `account:${context.accountId}`;
  return context.kind;
}

/** Stable JSON: object keys sorted, so {a,b} and {b,a} are the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
    const entries = Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  if (Buffer.isBuffer(value)) return createHash('sha256').update(value).digest('hex');
  return JSON.stringify(value) ?? 'null';
}

/** Where the body is optional, `{}` and no body are the same request (a client may send either). */
function bodyOf(op: Operation, req: Request): unknown {
  const body: unknown = req.body;
  const empty = body !== null && typeof body === 'object' && !Buffer.isBuffer(body) && !Array.isArray(body) && Object.keys(body).length === 0;
  return body === undefined || (empty && !op.body?.required) ? null : body;
}

function requestHash(op: Operation, req: Request): string {
  return createHash('sha256').update(`${op.operationId}\n${canonical(req.params)}\n${canonical(bodyOf(op, req))}`).digest('hex');
}

/**
 * Replays a completed request, refuses a different body (422) or a request still running (409),
 * otherwise claims the key and records the response the handler sends. 5xx, other retryable
 * answers and aborted requests release the key so a retry runs again.
 */
export function idempotency(op: Operation, keys: IdempotencyKeys) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const key = req.get('idempotency-key');
    // only operations that declare the header take part (a stray header on a GET is ignored)
    if (!key || !op.idempotencyKey) return next();
    const scope = scopeOf(locals(res).auth);
    const hash = requestHash(op, req);
    const existing = await keys.claim(scope, key, hash);
    if (existing) return answerExisting(res, existing, hash);
    recordResponse(res, keys, scope, key);
    next();
  };
}

function answerExisting(res: Response, existing: ClaimedKey, hash: string): void {
  if (existing.request_hash !== hash) {
    throw new ApiError('IDEMPOTENCY_KEY_REUSED', 'this Idempotency-Key was used with a different request; use a new key', { param: 'Idempotency-Key' });
  }
  if (existing.state === 'in_progress') {
    throw new ApiError('IDEMPOTENCY_REQUEST_IN_PROGRESS', 'a request with this Idempotency-Key is still running; retry shortly', { param: 'Idempotency-Key' });
  }
  res.setHeader('Idempotent-Replayed', 'true');
  if (existing.response_body === null) return void res.status(existing.response_status ?? 204).end();
  res.status(existing.response_status ?? 200).type('application/json').send(existing.response_body);
}

function recordResponse(res: Response, keys: IdempotencyKeys, scope: string, key: string): void {
  let settled = false;
  const settle = async (body: string | null) => {
    if (settled) return;
    settled = true;
    // an answer the client is told to retry must not be replayed to that retry (issue 26: a
    // "not yet" 409 stored here made every retry with the key replay it, so it never succeeded)
    if (res.statusCode >= 500 || locals(res).retryableAnswer) await keys.release(scope, key);
    else await keys.complete(scope, key, res.statusCode, body);
  };
  // a key that could not be recorded stays in progress until it expires; the answer still goes out
  const settleQuietly = (body: string | null) => settle(body).catch(() => undefined);
  // stored before the JSON is sent (res.json stays synchronous for its callers): a retry that
  // comes after the answer replays it; one during the write finds the key in progress (409)
  const originalJson = res.json.bind(res);
  res.json = (body: unknown) => {
    void settleQuietly(JSON.stringify(body)).then(() => originalJson(body));
    return res;
  };
  // bodiless answers (204) never pass through res.json
  res.on('finish', () => void settleQuietly(null));
  res.on('close', () => {
    // the client left before any answer: free the key rather than hold it for 24 h
    if (!settled && !res.writableFinished) {
      settled = true;
      void keys.release(scope, key).catch(() => undefined);
    }
  });
}
