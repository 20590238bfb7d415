import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import type { RequestLogsService } from '../resources/request-logs/service.js';
import { locals } from './context.js';

/** Records requests made with application API keys once they finish; never the key or body. */
export function requestLog(service: RequestLogsService, logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    res.on('finish', () => {
      const state = locals(res);
      const context = state.auth;
      if (!context || (context.kind !== 'secret' && context.kind !== 'publishable')) return;
      try {
        service.record({
          application_id: context.application.id,
          environment: context.environment,
          key_id: context.keyId,
          method: req.method,
          path: req.path,
          status: res.statusCode,
          request_id: state.requestId,
          duration_ms: Date.now() - state.startedAt,
          idempotency_key: req.get('idempotency-key') ?? null,
        });
      } catch (error) {
        logger.warn({ err: error }, 'could not write request log');
      }
    });
    next();
  };
}

/** One structured line per request. */
export function accessLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    res.on('finish', () => {
      const state = locals(res);
      logger.info({ requestId: state.requestId, method: req.method, path: req.path, status: res.statusCode, ms: Date.now() - state.startedAt }, 'request');
    });
    next();
  };
}
