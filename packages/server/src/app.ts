import express, { type Express, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { authenticate } from './http/auth.js';
import { bodyParser } from './http/body.js';
import { locals } from './http/context.js';
import { cors, isBrowserFacing, preflight } from './http/cors.js';
import { docsRouter } from './http/docs.js';
import { errorHandler, notFoundHandler } from './http/errors.js';
import { idempotency } from './http/idempotency.js';
import { rateLimit, type RateLimiter } from './http/rate-limit.js';
import { requestLogging } from './http/request-log.js';
import { requestId } from './http/request-id.js';
import type { RouteDef } from './http/route.js';
import { validateRequest } from './http/validate.js';
import { sandboxDocsKey } from './sandbox-keys.js';
import { createFriendbotRouter, ensureFriendbot } from './stellar/index.js';
import { accountRoutes } from './resources/accounts/routes.js';
import { applicationRoutes } from './resources/applications/routes.js';
import { assetRoutes } from './resources/assets/routes.js';
import { checkoutRoutes, hostedCheckoutRouter } from './resources/checkout/index.js';
import { fundingIntentRoutes } from './resources/funding-intents/routes.js';
import { requestLogRoutes } from './resources/request-logs/routes.js';
import { eventRoutes, webhookRoutes } from './resources/webhooks/index.js';
import type { Services } from './services.js';
import { pipelineRoutes } from './pipeline/routes.js';
import { quoteRoutes } from './resources/quotes/routes.js';
import { routeExecutionRoutes } from './resources/route-executions/routes.js';
import { pathAliases, type Operation, type Spec } from './spec/operations.js';
import type { SpecValidator } from './spec/validator.js';

/** Everything a request needs, built once by createServer. */
export interface AppContext {
  config: Config;
  logger: Logger;
  spec: Spec;
  validator: SpecValidator;
  services: Services;
  rateLimiter: RateLimiter;
  /** HS256 key for checkout session tokens */
  checkoutKey: Buffer;
  /** extra routes (later issues, tests) merged into the table */
  extraRoutes?: (services: Services) => RouteDef[];
}

/** The route table: one entry per implemented operationId. New resources add a line here. */
export function routeTable(services: Services): RouteDef[] {
  return [
    ...accountRoutes(services.accounts),
    ...applicationRoutes(services.applications, services.keys),
    ...assetRoutes(services.assets),
    ...fundingIntentRoutes(services.fundingIntents),
    ...requestLogRoutes(services.requestLogs),
    ...checkoutRoutes(services.checkout),
    ...webhookRoutes(services.webhooks.endpoints, services.webhooks.deliveries), ...eventRoutes(services.webhooks.events),
    ...pipelineRoutes(services.pipeline),
    ...quoteRoutes(services.quotes.quotes), ...routeExecutionRoutes(services.quotes.routeExecutions),
  ];
}

function expressPath(specPath: string): string {
  return specPath.replace(/\{([^}]+)\}/g, ':$1');
}

/** The middleware chain of one operation, in order; the handler comes last. */
function chain(op: Operation, route: RouteDef, ctx: AppContext): RequestHandler[] {
  const { services } = ctx;
  const setOperation: RequestHandler = (_req, res, next) => {
    locals(res).operation = op;
    next();
  };
  const authDeps = {
    keys: services.keys,
    accounts: services.accounts,
    operatorKey: ctx.config.operatorKey,
    checkoutKey: ctx.checkoutKey,
    findApplication: (id: string) => services.applications.findById(id),
  };
  return [
    setOperation,
    ...(isBrowserFacing(op) ? [cors] : []),
    authenticate(op, authDeps),
    rateLimit(ctx.rateLimiter),
    bodyParser(op),
    validateRequest(op, ctx.validator),
    idempotency(op, services.idempotency),
    route.handler,
  ];
}

/**
 * The chain as one Express handler: the steps run in order through one `next`, as Express would
 * run them (a thrown error or a rejected promise goes to the error handler), without a router
 * layer and its dispatch per step.
 */
function composed(steps: RequestHandler[]): RequestHandler {
  return (req, res, done) => {
    let index = 0;
    const next = (error?: unknown): void => {
      if (error) return done(error);
      const step = steps[index++];
      if (!step) return done();
      try {
        const result: unknown = step(req, res, next);
        if (result instanceof Promise) result.then(undefined, (reason: unknown) => next(reason ?? new Error('Rejected promise')));
      } catch (thrown) {
        next(thrown);
      }
    };
    next();
  };
}

/** One mounted (operation, path spelling), in mounting order, for the direct dispatch. */
interface DirectRoute {
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

function directSegments(specPath: string): DirectRoute['segments'] | null {
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
function directDispatch(byMethod: Map<string, DirectRoute[]>): RequestHandler {
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
function skippable(position: number, handler: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const passed = (req as unknown as Record<symbol, number | undefined>)[PASSED_ON];
    if (passed !== undefined && position <= passed) return next();
    return handler(req, res, next);
  };
}

function mountRoutes(app: Express, ctx: AppContext): void {
  // extra routes first: Express answers with the first match, so a test stub can stand in for a real route
  const routes = [...(ctx.extraRoutes?.(ctx.services) ?? []), ...routeTable(ctx.services)];
  const byId = new Map(ctx.spec.operations.map((op) => [op.operationId, op]));
  const preflightPaths = new Set<string>();
  const direct = new Map<string, DirectRoute[]>();
  app.use(directDispatch(direct));
  let position = 0;
  for (const route of routes) {
    const op = byId.get(route.operationId);
    if (!op) {
      ctx.logger.warn({ operationId: route.operationId }, 'route has no operation in the spec; not mounted');
      continue;
    }
    for (const path of pathAliases(op.path)) {
      const handler = composed(chain(op, route, ctx));
      const mounted = app.route(expressPath(path));
      (mounted as unknown as Record<string, (h: RequestHandler) => void>)[op.method]!(skippable(position, handler));
      const method = op.method.toUpperCase();
      const segments = directSegments(path);
      if (!direct.has(method)) direct.set(method, []);
      direct.get(method)!.push({ position, segments: segments ?? [], opaque: !segments, handler, route: mounted });
      position++;
      if (isBrowserFacing(op)) preflightPaths.add(expressPath(path));
    }
  }
  for (const path of preflightPaths) app.options(path, preflight);
  const missing = ctx.spec.operations.filter((op) => !routes.some((r) => r.operationId === op.operationId) && !op.operationId.startsWith('on'));
  ctx.logger.debug({ operations: missing.map((op) => op.operationId) }, 'operations not implemented yet');
}

/**
 * The sandbox friendbot (sandbox mode only), also at /sandbox/horizon/friendbot where the SDK's
 * `server.friendbot(addr)` looks. Mounted before the Horizon router so this more specific path wins.
 */
function mountFriendbot(app: Express, ctx: AppContext): void {
  const ledger = ctx.services.pipeline.pipeline.stellar?.ledger;
  if (!ledger) return;
  const friendbot = createFriendbotRouter(ledger, ensureFriendbot(ledger));
  app.use('/sandbox/friendbot', friendbot);
  app.use('/sandbox/horizon/friendbot', friendbot);
}

/** Builds the Express app; never listens (see index.ts and main.ts). */
export function createApp(ctx: AppContext): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  // the request id, then the logging of the request: one layer (each layer is a walk through Express's router)
  const logging = requestLogging(ctx.services.requestLogs, ctx.logger);
  app.use((req, res, next) => requestId(req, res, () => logging(req, res, next)));
  mountFriendbot(app, ctx);
  // the embedded ledger's Horizon, for wallets and the SDK (sandbox mode only)
  if (ctx.services.pipeline.pipeline.horizonRouter) app.use('/sandbox/horizon', ctx.services.pipeline.pipeline.horizonRouter);
  mountRoutes(app, ctx);
  app.use(hostedCheckoutRouter(ctx.services.checkout));
  app.use(docsRouter({ sandbox: ctx.config.stellar === 'sandbox', prefillKey: () => sandboxDocsKey(ctx.config.dataDir) }));
  app.use(notFoundHandler);
  app.use(errorHandler(ctx.logger));
  return app;
}
