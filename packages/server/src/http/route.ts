import type { Request, Response } from 'express';

export type Handler = (req: Request, res: Response) => void | Promise<void>;

/**
 * A route is a handler for one operation of the spec, by operationId. The app mounts it at the
 * spec's path (both funding-intent spellings) behind auth, rate limit, validation and idempotency,
 * so a handler only reads validated input, calls its service and responds.
 */
export interface RouteDef {
  operationId: string;
  handler: Handler;
}

/** Request body after validation against the operation's schema. */
export function body<T>(req: Request): T {
  return (req.body ?? {}) as T;
}
