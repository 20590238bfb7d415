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

/** The operation's parameter names by location, listed once per operation instead of per request. */
function namesIn(op: Operation, location: 'path' | 'query' | 'header'): string[] {
  return op.parameters.filter((x) => x.in === location).map((x) => x.name);
}

function pathParams(names: string[], req: Request): Record<string, unknown> {
  // Express names come from the spec path, so they match one to one.
  const out: Record<string, unknown> = {};
  for (const name of names) out[name] = req.params[name];
  return out;
}

function queryParams(names: string[], req: Request): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (names.length === 0) return out;
  const query = req.query as Record<string, unknown>;
  for (const name of names) {
    if (query[name] !== undefined) out[name] = query[name];
  }
  return out;
}

function headerParams(names: string[], req: Request): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const value = req.get(name);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** How deep `metadata` may nest (the metadata object itself is level 1); DESIGN §6 bounds its size too. */
export const MAX_METADATA_DEPTH = 32;

/** Whether arrays and objects in `value` nest deeper than `limit` (iterative: no stack to overflow). */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(node)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/** A body's `metadata` nested past its limit: a 400 naming it, before the schema walks it. */
function checkMetadataDepth(body: unknown): void {
  if (body === null || typeof body !== 'object' || Buffer.isBuffer(body) || !('metadata' in body)) return;
  if (nestsDeeperThan((body as { metadata: unknown }).metadata, MAX_METADATA_DEPTH)) {
    const message = `nests objects and arrays more than ${MAX_METADATA_DEPTH} levels deep (the limit for metadata)`;
    throw new ApiError('VALIDATION_ERROR', `invalid request: body.metadata ${message}`, { details: [{ path: 'body.metadata', message }] });
  }
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
  const names = { path: namesIn(op, 'path'), query: namesIn(op, 'query'), header: namesIn(op, 'header') };
  return (req: Request, res: Response, next: NextFunction): void => {
    requireIdempotencyKey(op, req);
    checkMetadataDepth(req.body);
    const parts = { path: pathParams(names.path, req), query: queryParams(names.query, req), header: headerParams(names.header, req), body: req.body, hasBody: hasBody(req) };
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
