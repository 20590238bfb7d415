import type { NextFunction, Request, Response } from 'express';
import type { Operation } from '../spec/operations.js';
import type { SpecValidator } from '../spec/validator.js';
import { ApiError } from './api-error.js';
import { hasBody } from './body.js';
import { locals } from './context.js';

/** Validated, type-coerced parameters for the handler (express 5's req.query is read-only). */
export interface ValidatedInput {
  path: Record<string, unknown>;
  query: Record<string, any>;
  header: Record<string, unknown>;
}

export function input(res: Response): ValidatedInput {
  return (res.locals as { input: ValidatedInput }).input;
}

function pathParams(op: Operation, req: Request): Record<string, unknown> {
  // Express names come from the spec path, so they match one to one.
  const out: Record<string, unknown> = {};
  for (const p of op.parameters.filter((x) => x.in === 'path')) out[p.name] = req.params[p.name];
  return out;
}

function queryParams(op: Operation, req: Request): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const query = req.query as Record<string, unknown>;
  for (const p of op.parameters.filter((x) => x.in === 'query')) {
    if (query[p.name] !== undefined) out[p.name] = query[p.name];
  }
  return out;
}

function headerParams(op: Operation, req: Request): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of op.parameters.filter((x) => x.in === 'header')) {
    const value = req.get(p.name);
    if (value !== undefined) out[p.name] = value;
  }
  return out;
}

/** IDEMPOTENCY_KEY_REQUIRED comes before the general validation so it is not a VALIDATION_ERROR. */
function requireIdempotencyKey(op: Operation, req: Request): void {
  if (op.idempotencyKey?.required && !req.get('idempotency-key')) {
    throw new ApiError('IDEMPOTENCY_KEY_REQUIRED', 'this operation requires an Idempotency-Key header', {
      param: 'Idempotency-Key',
    });
  }
}

export function validateRequest(op: Operation, validator: SpecValidator) {
  return (req: Request, res: Response, next: NextFunction): void => {
    requireIdempotencyKey(op, req);
    const parts = { path: pathParams(op, req), query: queryParams(op, req), header: headerParams(op, req), body: req.body, hasBody: hasBody(req) };
    // raw uploads are checked by their service (format, size), not by a JSON schema
    const details = validator.validateRequest(op, Buffer.isBuffer(req.body) ? { ...parts, hasBody: true, body: undefined } : parts);
    if (details.length > 0) {
      const summary = details.map((d) => `${d.path} ${d.message}`).join('; ');
      throw new ApiError('VALIDATION_ERROR', `invalid request: ${summary}`, { details });
    }
    (res.locals as { input: ValidatedInput }).input = { path: parts.path, query: parts.query, header: parts.header };
    locals(res).idempotencyKey = req.get('idempotency-key');
    next();
  };
}
