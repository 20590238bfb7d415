import { AmountError } from '../lib/money.js';
import type { ErrorDetail } from '../spec/validator.js';

/** Error codes of INTERFACE.md with their HTTP status (DESIGN.md §7). */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  VALIDATION_ERROR: 400,
  IDEMPOTENCY_KEY_REQUIRED: 400,
  UNAUTHORIZED: 401,
  INVALID_CREDENTIALS: 401,
  INVALID_TOKEN: 401,
  SESSION_EXPIRED: 401,
  FORBIDDEN: 403,
  APPLICATION_INACTIVE: 403,
  EMAIL_NOT_VERIFIED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  IDEMPOTENCY_REQUEST_IN_PROGRESS: 409,
  EMAIL_ALREADY_REGISTERED: 409,
  QUOTE_EXPIRED: 409,
  QUOTE_NOT_SELECTABLE: 409,
  QUOTE_NOT_LOCKED: 409,
  EXECUTION_NOT_FAILED: 409,
  EXECUTION_NOT_RESUMABLE: 409,
  LOGO_FORMAT_UNSUPPORTED: 415,
  IDEMPOTENCY_KEY_REUSED: 422,
  INVALID_AMOUNT: 422,
  UNSUPPORTED_ASSET: 422,
  INVALID_DESTINATION: 422,
  INVALID_EXPIRATION: 422,
  INSUFFICIENT_INPUT: 422,
  NO_ROUTE_AVAILABLE: 422,
  PROTOCOL_REJECTED: 422,
  LOGO_DIMENSIONS_INVALID: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  PROTOCOL_UNAVAILABLE: 503,
  ROUTE_UNAVAILABLE: 503,
  LOGO_STORAGE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;


export interface ApiErrorOptions {
  details?: ErrorDetail[];
  /** the offending parameter, for the checkout envelope's `param` */
  param?: string;
  retryAfterSeconds?: number;
  /**
   * a "not yet" answer (issue 26): the same request succeeds later as it is, so it is marked
   * retryable, comes with Retry-After, and is never stored under its Idempotency-Key
   */
  retryable?: boolean;
  /** overrides the code's status where the spec says so (413 BAD_REQUEST) */
  status?: number;
}

/** An error meant for the client: code, message, and what the envelope needs. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: ErrorDetail[] | undefined;
  readonly param: string | undefined;
  readonly retryAfterSeconds: number | undefined;
  private readonly notYet: boolean;

  constructor(code: ErrorCode, message: string, options: ApiErrorOptions = {}) {
    super(message);
    this.code = code;
    this.status = options.status ?? ERROR_STATUS[code];
    this.details = options.details;
    this.param = options.param ?? options.details?.[0]?.path;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.notYet = options.retryable === true;
  }

  /** DESIGN §7: retryable for 409 IN_PROGRESS, 429 and 5xx, and for a "not yet" answer. */
  get retryable(): boolean {
    return this.notYet || this.code === 'IDEMPOTENCY_REQUEST_IN_PROGRESS' || this.status === 429 || this.status >= 500;
  }
}

export const notFound = (what: string) => new ApiError('NOT_FOUND', `${what} not found`);

/** Runs an amount parser (lib/money) and turns its AmountError into 422 INVALID_AMOUNT on `path`. */
export function parseAmountInput(parse: () => bigint, path = 'body.amount'): bigint {
  try {
    return parse();
  } catch (error) {
    if (!(error instanceof AmountError)) throw error;
    throw new ApiError('INVALID_AMOUNT', `amount ${error.message}`, { details: [{ path, message: error.message }] });
  }
}
