import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import type { RequestLogsService } from '../resources/request-logs/service.js';
import { locals } from './context.js';

/**
 * One `finish` listener per request for both logs: the access log (one structured line, only when
 * the logger writes `info`) and the request log of application API keys (never the key or body).
 */
export function requestLogging(service: RequestLogsService, logger: Logger) {
  const access = logger.isLevelEnabled('info');
  return (req: Request, res: Response, next: NextFunction): void => {
    // errors of the write are caught (and logged) inside
    res.on('finish', () => void onFinish());
    const onFinish = async () => {
      const state = locals(res);
      const ms = Date.now() - state.startedAt;
      if (access) logger.info({ requestId: state.requestId, method: req.method, path: req.path, status: res.statusCode, ms }, 'request');
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
