/**
 * Routing the operations without Express's router walk: each operation's middleware chain as one
 * handler (`composed`), and a table lookup that answers the requests it can match exactly as
 * Express would (`directDispatch`), the Express routes staying mounted for everything else.
 */
import type { RequestHandler } from 'express';

/**
 * The chain as one Express handler: the steps run in order through one `next`, as Express would
 * run them (a thrown error or a rejected promise goes to the error handler), without a router
 * layer and its dispatch per step.
 */
export function composed(steps: RequestHandler[]): RequestHandler {
  return (req, res, done) => {
    let index = 0;
    const next = (error?: unknown): void => {
      if (error) return done(error);
      const step = steps[index++];
      if (!step) return done();
      try {
        const result: unknown = step(req, res, next);
        // as Express 5: an async step's rejection goes to next(); its success already called next()
        if (result instanceof Promise) void result.then(undefined, (reason: unknown) => next(reason ?? new Error('Rejected promise')));
      } catch (thrown) {
        next(thrown);
      }
    };
    next();
  };
}

/** One mounted (operation, path spelling), in mounting order, for the direct dispatch. */
export interface DirectRoute {
  /** its place among the mounted routes */
  position: number;
  /** literal segments lower-cased; a parameter as its name */
  segments: ({ literal: string } | { param: string })[];
  /** a path the direct dispatch cannot match exactly as Express would: requests stop there and go to Express */
  opaque: boolean;
  handler: RequestHandler;
  route: unknown;
}

/** Set on a request the direct dispatch ran a route for that passed it on (`next()`): routes up to it are skipped, as Express would. */
const PASSED_ON = Symbol('passed on by the direct dispatch');

const PLAIN_PATH = /^\/[A-Za-z0-9_.~/-]*$/;
const LITERAL_SEGMENT = /^[A-Za-z0-9_.~-]+$/;
const PARAM_SEGMENT = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/;
const DIRECT_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

export function directSegments(specPath: string): DirectRoute['segments'] | null {
  const segments: DirectRoute['segments'] = [];
  for (const part of specPath.split('/').slice(1)) {
    const param = PARAM_SEGMENT.exec(part);
    if (param) segments.push({ param: param[1]! });
    else if (LITERAL_SEGMENT.test(part)) segments.push({ literal: part.toLowerCase() });
    else return null;
  }
  return segments;
}

/**
 * The operations' routes found by a table lookup instead of Express's walk over every route
 * layer (~5% of a small request). It answers only what it matches exactly as Express would
 * (case-insensitive literals, a parameter is one non-empty segment, first mounted route wins):
 * GET/POST/PUT/PATCH/DELETE on a plain path (no percent-encoding, no trailing or double slash).
 * Everything else (HEAD, OPTIONS, other spellings, no match) goes on to the Express routes as
 * before. The route runs with the `req.params` and `req.route` Express would give it; an error
 * goes to the error handler as from Express, and a route that passes the request on continues
 * past itself, as in Express.
 */
export function directDispatch(byMethod: Map<string, DirectRoute[]>): RequestHandler {
  return (req, res, next) => {
    const candidates = byMethod.get(req.method);
    if (!candidates || !DIRECT_METHODS.has(req.method)) return next();
    const url = req.url;
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    if (!PLAIN_PATH.test(path) || path.endsWith('/') || path.includes('//')) return next();
    const parts = path.split('/');
    for (const candidate of candidates) {
      if (candidate.opaque) return next();
      if (candidate.segments.length !== parts.length - 1) continue;
      let params: Record<string, string> | null = {};
      for (let i = 0; i < candidate.segments.length; i++) {
        const segment = candidate.segments[i]!;
        const part = parts[i + 1]!;
        if ('param' in segment) params[segment.param] = part;
        else if (part !== segment.literal && part.toLowerCase() !== segment.literal) {
          params = null;
          break;
        }
      }
      if (!params) continue;
      req.params = params;
      (req as { route?: unknown }).route = candidate.route;
      return candidate.handler(req, res, (error?: unknown) => {
        if (error) return next(error);
        (req as unknown as Record<symbol, number>)[PASSED_ON] = candidate.position;
        next();
      });
    }
    next();
  };
}

/** The route's handler as mounted in Express: skipped when the direct dispatch already ran it (or one before it) and it passed the request on. */
export function skippable(position: number, handler: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const passed = (req as unknown as Record<symbol, number | undefined>)[PASSED_ON];
    if (passed !== undefined && position <= passed) return next();
    return handler(req, res, next);
  };
}
