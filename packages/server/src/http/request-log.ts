import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import type { Environment } from '../domain/environment.js';
import { locals } from './context.js';

/** The metrics label of a request that matched no operation of the spec: its route family, never its path. */
function familyOf(path: string): string {
  if (path.startsWith('/sandbox/')) return 'sandbox';
  if (path.startsWith('/checkout/')) return 'checkout_page';
  if (path.startsWith('/dashboard')) return 'dashboard';
  if (path.startsWith('/docs') || path === '/openapi.yaml') return 'docs';
  if (path === '/healthz' || path === '/readyz' || path === '/metrics') return 'ops';
  return 'unmatched';
}

/**
 * One `finish` listener per request for both logs: the access log (one structured line, only when
 * the logger writes `debug`), the HTTP metrics (when on) and the request log of application API
 * keys (never the key or body).
 */
/** What the request log tells the metrics (ops/telemetry.ts implements it; http/ does not know ops/). */
export interface RequestMetrics {
  httpRequest(operation: string, method: string, status: number, seconds: number): void;
}

/** Where each logged request goes (resources/request-logs/service.ts keeps them). */
export interface RequestLogSink {
  record(entry: {
    application_id: string; environment: Environment; key_id: string; method: string; path: string; status: number;
    request_id: string; duration_ms: number; idempotency_key: string | null;
  }): Promise<void>;
}

export function requestLogging(service: RequestLogSink, logger: Logger, telemetry: RequestMetrics | null = null) {
  // debug: at info, the level `pnpm start` shows, the pipeline's notable events stand out
  const access = logger.isLevelEnabled('debug');
  return (req: Request, res: Response, next: NextFunction): void => {
    // errors of the write are caught (and logged) inside
    res.on('finish', () => void onFinish());
    const onFinish = async () => {
      const state = locals(res);
      const ms = Date.now() - state.startedAt;
      if (access) logger.debug({ requestId: state.requestId, method: req.method, path: req.path, status: res.statusCode, ms }, 'request');
      telemetry?.httpRequest(state.operation?.operationId ?? familyOf(req.path), req.method, res.statusCode, ms / 1000);
      const context = state.auth;
      if (!context || (context.kind !== 'secret' && context.kind !== 'publishable')) return;
      try {
        await service.record({
          application_id: context.application.id,
          environment: context.environment,
          key_id: context.keyId,
          method: req.method,
          path: req.path,
          status: res.statusCode,
          request_id: state.requestId,
          duration_ms: ms,
          idempotency_key: req.get('idempotency-key') ?? null,
        });
      } catch (error) {
        logger.warn({ err: error }, 'could not write request log');
      }
    };
    next();
  };
}
