import type { components } from '../generated/openapi.js';

/** Every code the API documents, plus room for codes added later without a type error. */
export type ErrorCode = components['schemas']['ErrorCode'] | (string & {});
/** One failing field of a validation error. */
export type ErrorDetail = components['schemas']['ErrorDetail'];

/** Everything an error carries, whichever envelope (application or checkout) the server used. */
export interface FundkitErrorFields {
  /** Upper-case error code (`QUOTE_EXPIRED`), normalised from both envelopes. */
  code: ErrorCode;
  /** HTTP status; undefined when no response arrived (connection errors, timeouts). */
  status?: number | undefined;
  /** The request id from the envelope, else the `X-Request-ID` header. Quote it to support. */
  requestId?: string | undefined;
  /** Whether repeating the same request may succeed. */
  retryable: boolean;
  /** Every failing field of a validation error (application envelope). */
  details?: ErrorDetail[] | undefined;
  /** The field at fault (checkout envelope). */
  param?: string | undefined;
  /** Link to the error reference (checkout envelope). */
  docsUrl?: string | undefined;
  /** Error family from the checkout envelope (`validation_error`, `invalid_request_error`, ...). */
  type?: string | undefined;
  /** Seconds the server asked to wait (`Retry-After` header or `retry_after_seconds`). */
  retryAfterSeconds?: number | undefined;
  /** Response headers, when there was a response. */
  headers?: Headers | undefined;
  /** The parsed response body as received. */
  raw?: unknown;
}

/** Base class of every error the SDK throws; `instanceof FundkitError` catches them all. */
export class FundkitError extends Error implements FundkitErrorFields {
  code: ErrorCode;
  status?: number | undefined;
  requestId?: string | undefined;
  retryable: boolean;
  details?: ErrorDetail[] | undefined;
  param?: string | undefined;
  docsUrl?: string | undefined;
  type?: string | undefined;
  retryAfterSeconds?: number | undefined;
  headers?: Headers | undefined;
  raw?: unknown;

  constructor(message: string, fields: FundkitErrorFields, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = fields.code;
    this.retryable = fields.retryable;
    Object.assign(this, fields);
  }
}

/** 401: missing, invalid, revoked or expired credential. */
export class AuthenticationError extends FundkitError {}
/** 403: valid credential, not allowed (wrong environment, inactive application, secret key from a browser). */
export class PermissionError extends FundkitError {}
/** 404: the object does not exist or belongs to another application. */
export class NotFoundError extends FundkitError {}
/** 409: the object's state forbids the operation. */
export class ConflictError extends FundkitError {}
/** 409 QUOTE_EXPIRED: fetch the options again and accept a fresh quote. */
export class QuoteExpiredError extends ConflictError {}
/** IDEMPOTENCY_KEY_REQUIRED (400), IDEMPOTENCY_KEY_REUSED (422), IDEMPOTENCY_REQUEST_IN_PROGRESS (409). */
export class IdempotencyError extends FundkitError {}
/** 400 or 422: the request is invalid; see `details` or `param`. */
export class ValidationError extends FundkitError {}
/** 429: slow down; `retryAfterSeconds` says how long. */
export class RateLimitError extends FundkitError {}
/** 5xx and any other status. */
export class ApiError extends FundkitError {}
/** No response: DNS, refused connection, reset socket. */
export class ConnectionError extends FundkitError {}
/** No response within `timeoutMs` (or the total deadline). */
export class TimeoutError extends ConnectionError {}
/** The caller's `signal` aborted the request. */
export class UserAbortError extends FundkitError {}
