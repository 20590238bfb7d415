import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { ApiError } from './api-error.js';
import { locals } from './context.js';

const DOCS_BASE = 'https://docs.fundkit.dev/errors/';

/** The checkout envelope's `type` (spec: CheckoutErrorType), by status family. */
function checkoutType(error: ApiError): string {
  if (error.status === 401) return 'authentication_error';
  if (error.status === 403) return 'permission_error';
  if (error.status === 404) return 'not_found_error';
  if (error.status === 429) return 'rate_limit_error';
  if (error.status >= 500) return 'api_error';
  // a field is invalid (param names it); everything else cannot be done as asked
  return error.code === 'VALIDATION_ERROR' ? 'validation_error' : 'invalid_request_error';
}

function checkoutEnvelope(error: ApiError, requestId: string): object {
  return {
    error: {
      type: checkoutType(error),
      code: error.code.toLowerCase(),
      message: error.message,
      request_id: requestId,
      ...(error.param ? { param: error.param } : {}),
      retryable: error.retryable,
      ...(error.retryAfterSeconds !== undefined ? { retry_after_seconds: error.retryAfterSeconds } : {}),
      docs_url: `${DOCS_BASE}${error.code.toLowerCase()}`,
    },
  };
}

function applicationEnvelope(error: ApiError, requestId: string): object {
  return {
    error: {
      code: error.code,
      message: error.message,
      requestId,
      retryable: error.retryable,
      ...(error.details?.length ? { details: error.details } : {}),
    },
  };
}

/** Writes an ApiError in the envelope of the matched operation (application form otherwise). */
export function sendError(res: Response, error: ApiError): void {
  const state = locals(res);
  if (error.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(error.retryAfterSeconds));
  state.retryableAnswer = error.retryable;
  const body = state.operation?.errorEnvelope === 'checkout'
    ? checkoutEnvelope(error, state.requestId)
    : applicationEnvelope(error, state.requestId);
  res.status(error.status).json(body);
}

/** Body-parser failures carry a status and a type; map them onto our codes. */
function fromParserError(error: { status?: number; type?: string }): ApiError | null {
  if (error.type === 'entity.too.large') return new ApiError('BAD_REQUEST', 'request body exceeds 1 MiB', { status: 413 });
  if (error.type === 'entity.parse.failed') return new ApiError('BAD_REQUEST', 'request body is not valid JSON');
  if (error.type === 'encoding.unsupported' || error.type === 'charset.unsupported') {
    return new ApiError('BAD_REQUEST', 'request body encoding is not supported');
  }
  if (typeof error.status === 'number' && error.status >= 400 && error.status < 500) {
    return new ApiError('BAD_REQUEST', 'request body could not be read');
  }
  return null;
}

/** Last middleware: anything thrown becomes an envelope; unexpected errors are logged, never shown. */
export function errorHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const apiError = error instanceof ApiError ? error : fromParserError(error as { status?: number; type?: string });
    if (res.headersSent) return;
    if (apiError) return sendError(res, apiError);
    logger.error({ err: error, requestId: locals(res).requestId, path: req.path }, 'unhandled error');
    sendError(res, new ApiError('INTERNAL_ERROR', 'an internal error occurred; retry later'));
  };
}

export function notFoundHandler(req: Request, res: Response): void {
  sendError(res, new ApiError('NOT_FOUND', `no route for ${req.method} ${req.path}`));
}
