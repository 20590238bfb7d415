import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Operation } from '../spec/operations.js';

export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Parses the body the operation declares: JSON for JSON operations (whatever Content-Type the
 * client sent, so a missing header is not a confusing error), raw bytes for binary uploads.
 */
export function bodyParser(op: Operation): RequestHandler {
  const types = op.body?.contentTypes ?? [];
  if (types.length === 0 || types.some((t) => t.includes('json'))) {
    return express.json({ limit: MAX_BODY_BYTES, type: () => true, strict: false });
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
