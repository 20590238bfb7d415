import { createHash } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { IdempotencyRepo } from '../db/idempotency-repo.js';
import type { Operation } from '../spec/operations.js';
import { isoNow } from '../lib/time.js';
import { ApiError } from './api-error.js';
import { locals, type AuthContext } from './context.js';

const RETENTION_MS = 24 * 3_600_000;

/** Keys are scoped to the application and environment (DESIGN §7); other callers to themselves. */
function scopeOf(context: AuthContext | undefined): string {
  if (!context) return 'public';
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

function requestHash(op: Operation, req: Request): string {
  return createHash('sha256').update(`${op.operationId}\n${canonical(req.params)}\n${canonical(req.body ?? null)}`).digest('hex');
}

/**
 * Replays a completed request, refuses a different body (422) or a request still running (409),
 * otherwise claims the key and records the response the handler sends. 5xx and aborted requests
 * release the key so a retry runs again.
 */
export function idempotency(op: Operation, repo: IdempotencyRepo) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const key = req.get('idempotency-key');
    if (!key) return next();
    const scope = scopeOf(locals(res).auth);
    const hash = requestHash(op, req);
    const now = Date.now();
    const existing = repo.claim(scope, key, hash, isoNow(now), isoNow(now + RETENTION_MS));
    if (existing) return answerExisting(res, existing, hash);
    recordResponse(res, repo, scope, key);
    next();
  };
}

function answerExisting(res: Response, existing: NonNullable<ReturnType<IdempotencyRepo['claim']>>, hash: string): void {
  if (existing.request_hash !== hash) {
    throw new ApiError('IDEMPOTENCY_KEY_REUSED', 'this Idempotency-Key was used with a different request; use a new key', { param: 'Idempotency-Key' });
  }
  if (existing.state === 'in_progress') {
    throw new ApiError('IDEMPOTENCY_REQUEST_IN_PROGRESS', 'a request with this Idempotency-Key is still running; retry shortly', { param: 'Idempotency-Key' });
  }
  res.setHeader('Idempotent-Replayed', 'true');
  res.status(existing.response_status ?? 200).type('application/json').send(existing.response_body ?? 'null');
}

function recordResponse(res: Response, repo: IdempotencyRepo, scope: string, key: string): void {
  let settled = false;
  const originalJson = res.json.bind(res);
  res.json = (body: unknown) => {
    if (!settled) {
      settled = true;
      if (res.statusCode >= 500) repo.release(scope, key);
      else repo.complete(scope, key, res.statusCode, JSON.stringify(body));
    }
    return originalJson(body);
  };
  res.on('close', () => {
    if (!settled) repo.release(scope, key);
  });
}
