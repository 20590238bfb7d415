import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Operation } from '../spec/operations.js';
import { ApiError } from './api-error.js';

export const MAX_BODY_BYTES = 1024 * 1024;
/** Arrays and objects inside one another in a JSON body, at most (no operation needs ten). */
export const MAX_BODY_DEPTH = 64;

const OPEN_ARRAY = 0x5b, OPEN_OBJECT = 0x7b, CLOSE_ARRAY = 0x5d, CLOSE_OBJECT = 0x7d, QUOTE = 0x22, BACKSLASH = 0x5c;

/**
 * How deep arrays and objects nest in JSON text, read from its bytes before it is parsed: a body
 * of 20,000 nested objects parses, but every recursive walk of it afterwards (the schema
 * validator, JSON.stringify) overflows the stack, and a megabyte of `[` costs seconds to parse.
 * Brackets inside strings do not count. Stops as soon as the limit is passed.
 */
export function jsonDepthExceeds(bytes: Uint8Array, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      if (++depth > limit) return true;
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) depth--;
  }
  return false;
}

/** body-parser's verify hook: a body nested too deep is refused before JSON.parse sees it. */
function refuseDeepJson(_req: unknown, _res: unknown, bytes: Buffer): void {
  if (jsonDepthExceeds(bytes, MAX_BODY_DEPTH)) {
    const message = `nests arrays and objects more than ${MAX_BODY_DEPTH} levels deep (the limit for a request body)`;
    throw new ApiError('VALIDATION_ERROR', `invalid request: body ${message}`, { details: [{ path: 'body', message }] });
  }
}

/**
 * Parses the body the operation declares: JSON for JSON operations (whatever Content-Type the
 * client sent, so a missing header is not a confusing error), raw bytes for binary uploads.
 */
export function bodyParser(op: Operation): RequestHandler {
  const types = op.body?.contentTypes ?? [];
  if (types.length === 0 || types.some((t) => t.includes('json'))) {
    return express.json({ limit: MAX_BODY_BYTES, type: () => true, strict: false, verify: refuseDeepJson });
  }
  return express.raw({ limit: MAX_BODY_BYTES, type: () => true });
}

/** express leaves req.body undefined when nothing was sent; an empty buffer counts as nothing too. */
export function hasBody(req: Request): boolean {
  const body: unknown = req.body;
  if (body === undefined) return false;
  if (Buffer.isBuffer(body)) return body.length > 0;
  return true;
}

export type Middleware = (req: Request, res: Response, next: NextFunction) => void | Promise<void>;
