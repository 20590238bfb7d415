import { parseRetryAfter } from '../internal/backoff.js';
import {
  ApiError, AuthenticationError, ConflictError, FundkitError, IdempotencyError, NotFoundError,
  PermissionError, QuoteExpiredError, RateLimitError, ValidationError, type FundkitErrorFields,
} from './errors.js';

type ErrorClass = new (message: string, fields: FundkitErrorFields) => FundkitError;

interface Envelope {
  code?: unknown; message?: unknown; requestId?: unknown; request_id?: unknown; retryable?: unknown;
  details?: unknown; param?: unknown; docs_url?: unknown; type?: unknown; retry_after_seconds?: unknown;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function envelopeOf(body: unknown): Envelope {
  const error = (body as { error?: unknown } | null)?.error;
  return error && typeof error === 'object' ? (error as Envelope) : {};
}

/** Picks the subclass: code-specific families first, then by status. */
export function errorClassFor(status: number, code: string): ErrorClass {
  if (code.startsWith('IDEMPOTENCY_')) return IdempotencyError;
  if (code === 'QUOTE_EXPIRED') return QuoteExpiredError;
  if (status === 400 || status === 422) return ValidationError;
  const byStatus: Record<number, ErrorClass> = {
    401: AuthenticationError, 403: PermissionError, 404: NotFoundError, 409: ConflictError, 429: RateLimitError,
  };
  return byStatus[status] ?? ApiError;
}

/** Fallback code when the body is not one of our envelopes (a proxy's HTML page, an empty 502). */
function codeForStatus(status: number): string {
  if (status === 429) return 'RATE_LIMITED';
  if (status >= 500) return 'INTERNAL_ERROR';
  return 'API_ERROR';
}

/** Normalises both envelopes (application and checkout) into one FundkitError. */
export function errorFromResponse(status: number, body: unknown, headers: Headers): FundkitError {
  const env = envelopeOf(body);
  const code = (str(env.code) ?? codeForStatus(status)).toUpperCase();
  const retryAfterMs = parseRetryAfter(headers.get('retry-after'));
  const bodyRetryAfter = typeof env.retry_after_seconds === 'number' ? env.retry_after_seconds : undefined;
  const fields: FundkitErrorFields = {
    code,
    status,
    requestId: str(env.requestId) ?? str(env.request_id) ?? headers.get('x-request-id') ?? undefined,
    retryable: typeof env.retryable === 'boolean' ? env.retryable : status === 429 || status >= 500,
    details: Array.isArray(env.details) ? env.details : undefined,
    param: str(env.param),
    docsUrl: str(env.docs_url),
    type: str(env.type),
    retryAfterSeconds: retryAfterMs !== undefined ? retryAfterMs / 1000 : bodyRetryAfter,
    headers,
    raw: body,
  };
  const message = str(env.message) ?? (typeof body === 'string' && body ? body.slice(0, 200) : `HTTP ${status}`);
  const ErrorType = errorClassFor(status, code);
  return new ErrorType(message, fields);
}
