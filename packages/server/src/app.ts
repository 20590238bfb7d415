import express, { type Express, type RequestHandler, type Router } from 'express';
import type { Telemetry } from './ops/telemetry.js';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { authenticate } from './http/auth.js';
import { bodyParser } from './http/body.js';
import { locals } from './http/context.js';
import { cors, isBrowserFacing, preflight } from './http/cors.js';
import { docsRouter } from './http/docs.js';
import { pageHeaders } from './http/security-headers.js';
import { apiIndex } from './http/api-index.js';
import { favicon } from './http/favicon.js';
import { errorHandler, notFoundHandler } from './http/errors.js';
import { idempotency } from './http/idempotency.js';
import { rateLimit, type RateLimiter } from './http/rate-limit.js';
import { requestLogging } from './http/request-log.js';
import { requestId } from './http/request-id.js';
import type { RouteDef } from './http/route.js';
import { validateRequest } from './http/validate.js';
import { composed, directDispatch, directSegments, skippable, type DirectRoute } from './http/direct-dispatch.js';
import { sandboxDocsKey } from './sandbox-keys.js';
import { sandboxProxy, sandboxRpcProxy } from './http/sandbox-proxy.js';
import { sandboxProxyLimits } from './http/sandbox-limits.js';
import { accountRoutes } from './resources/accounts/routes.js';
import { applicationRoutes } from './resources/applications/routes.js';
import { keyRoutes } from './resources/keys/routes.js';
import { assetRoutes } from './resources/assets/routes.js';
import { dashboardRouter } from './http/dashboard.js';
import { checkoutRoutes, hostedCheckoutRouter } from './resources/checkout/index.js';
import { fundingIntentRoutes } from './resources/funding-intents/routes.js';
import { requestLogRoutes } from './resources/request-logs/routes.js';
import { eventRoutes, webhookRoutes } from './resources/webhooks/index.js';
import type { Services } from './services.js';
import { ledgerRoutes } from './resources/ledger/routes.js';
import { paymentRoutes } from './resources/payments/routes.js';
import { refundRoutes } from './resources/refunds/routes.js';
import { settlementRoutes } from './resources/settlements/routes.js';
import { testHelperRoutes } from './resources/test-helpers/routes.js';
import { unattributedPaymentRoutes } from './resources/unattributed-payments/routes.js';
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
  /** /healthz, /readyz, /metrics (ops/index.ts) */
  ops?: Router;
  /** HTTP metrics (null when FUNDKIT_METRICS=off) */
  telemetry?: Telemetry | null;
  /** the server's public URL (HSTS when https; where logos are served from) */
  publicBaseUrl: () => string;
}

/** The route table: one entry per implemented operationId. New resources add a line here. */
export function routeTable(services: Services): RouteDef[] {
  return [
    ...accountRoutes(services.accounts),
    ...applicationRoutes(services.applications), ...keyRoutes(services.applications, services.keys),
    ...assetRoutes(services.assets),
    ...fundingIntentRoutes(services.fundingIntents),
    ...requestLogRoutes(services.requestLogs),
    ...checkoutRoutes(services.checkout),
    ...webhookRoutes(services.webhooks.endpoints, services.webhooks.deliveries), ...eventRoutes(services.webhooks.events),
    ...paymentRoutes(services.pipeline.payments), ...settlementRoutes(services.pipeline.settlements), ...ledgerRoutes(services.pipeline.ledger),
    ...refundRoutes(services.pipeline.refunds), ...testHelperRoutes(services.pipeline.testHelpers),
    ...unattributedPaymentRoutes(services.pipeline.unattributed),
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
 * The sandbox network's Horizon, Stellar RPC and friendbot, for wallets, the checkout and the SDK
 * (sandbox mode only): forwarded to its thread or process.
 */
async function mountSandbox(app: Express, ctx: AppContext): Promise<void> {
  const url = ctx.services.pipeline.pipeline.stellar?.sandbox?.url;
  if (!url) return;
  const forward = sandboxProxy(url);
  const bounded = sandboxProxyLimits(ctx.config.sandboxProxy);
  for (const path of ['/sandbox/friendbot', '/sandbox/horizon']) app.use(path, bounded, forward);
  app.use('/sandbox/rpc', bounded, sandboxRpcProxy(url));
}

/** Builds the Express app; never listens (see index.ts and main.ts). */
export async function createApp(ctx: AppContext): Promise<Express> {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  // FUNDKIT_TRUST_PROXY: req.ip is the client behind these proxies (the limits key on it)
  app.set('trust proxy', ctx.config.trustProxy);
  // the request id, then the logging of the request: one layer (each layer is a walk through Express's router)
  const logging = requestLogging(ctx.services.requestLogs, ctx.logger, ctx.telemetry ?? null);
  app.use((req, res, next) => requestId(req, res, () => logging(req, res, next)));
  if (ctx.ops) app.use(ctx.ops);
  await mountSandbox(app, ctx);
  mountRoutes(app, ctx);
  // browser-rendered pages: each with its CSP and the other security headers (http/security-headers.ts)
  app.use(hostedCheckoutRouter(ctx.services.checkout, pageHeaders('checkout', ctx.publicBaseUrl), ctx.services.checkoutPages));
  app.get('/favicon.ico', favicon);
  app.get('/v1', apiIndex(ctx.config));
  app.use('/dashboard', pageHeaders('dashboard', ctx.publicBaseUrl));
  app.use(dashboardRouter());
  app.use('/docs', pageHeaders('docs', ctx.publicBaseUrl));
  app.use(docsRouter({ sandbox: ctx.config.stellar === 'sandbox', prefillKey: () => sandboxDocsKey(ctx.config.dataDir) }));
  app.use(notFoundHandler);
  app.use(errorHandler(ctx.logger));
  return app;
}
