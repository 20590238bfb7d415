import type { NextFunction, Request, Response } from 'express';
import type { Operation } from '../spec/operations.js';

/** Browser-facing operations: those accepting a publishable key or a checkout session. */
export function isBrowserFacing(op: Operation): boolean {
  return op.credentials.has('PublishableKey') || op.credentials.has('CheckoutSession');
}

export function setCorsHeaders(res: Response): void {
  // any origin, no cookies: credentials travel in Authorization only
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, Idempotency-Key, X-Request-ID');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS');
  res.setHeader('Access-Control-Expose-Headers', 'X-Request-ID, Retry-After, Idempotent-Replayed');
  res.setHeader('Access-Control-Max-Age', '600');
}

export function cors(_req: Request, res: Response, next: NextFunction): void {
  setCorsHeaders(res);
  next();
}

export function preflight(_req: Request, res: Response): void {
  setCorsHeaders(res);
  res.status(204).end();
}
