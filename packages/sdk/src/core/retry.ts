import { backoffDelay, parseRetryAfter } from '../internal/backoff.js';
import { BufferedResponse, readBody } from '../internal/buffered-response.js';
import { PendingRequest } from '../internal/pending-request.js';
import { sleep } from '../internal/sleep.js';
import { ConnectionError, FundkitError, TimeoutError, UserAbortError } from './errors.js';

/** Anything with `fetch`'s shape: the global one, undici's, a test double. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Where the SDK reports retries; `console` fits. */
export interface Logger {
  debug?(message: string, meta?: Record<string, unknown>): void;
  warn?(message: string, meta?: Record<string, unknown>): void;
}

export interface RetryPolicy {
  fetch: FetchLike;
  maxRetries: number;
  /** per attempt */
  timeoutMs: number;
  /** across all attempts and the waits between them */
  totalTimeoutMs: number;
  signal?: AbortSignal | undefined;
  logger?: Logger | undefined;
}

type Outcome = { response: Response; code?: string | undefined; retryable?: boolean | undefined } | { error: FundkitError };

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'DELETE']);

/**
 * A POST without an Idempotency-Key may already have taken effect when it failed, so it is
 * retried only when the server refused it before doing any work (429, 408).
 */
function canRepeat(request: Request | PendingRequest): boolean {
  return SAFE_METHODS.has(request.method) || request.headers.has('idempotency-key');
}

/**
 * The retry rule: network errors, 408, 409 IDEMPOTENCY_REQUEST_IN_PROGRESS, a 409 the server
 * marks `retryable` (a "not yet": the same request succeeds later), 429, 5xx.
 */
export function shouldRetry(outcome: Outcome, repeatable: boolean): boolean {
  if ('error' in outcome) return repeatable && !(outcome.error instanceof UserAbortError);
  const { status } = outcome.response;
  if (outcome.retryable === false) return false;
  if (status === 429 || status === 408) return true;
  if (!repeatable) return false;
  if (status === 409) return outcome.code === 'IDEMPOTENCY_REQUEST_IN_PROGRESS' || outcome.retryable === true;
  return status >= 500;
}

/** Server hint first (Retry-After header, then the checkout envelope's retry_after_seconds), else backoff. */
function delayFor(outcome: Outcome, retryIndex: number, hint: number | undefined): number {
  if ('response' in outcome) {
    const fromHeader = parseRetryAfter(outcome.response.headers.get('retry-after'));
    if (fromHeader !== undefined) return fromHeader;
    if (hint !== undefined) return Math.min(hint * 1000, 60_000);
  }
  return backoffDelay(retryIndex);
}

/** Reads a buffered error body, so the retry decision can see its code; the caller can still read it. */
async function inspect(response: BufferedResponse): Promise<Outcome & { hint?: number }> {
  try {
    const error = ((await response.json()) as { error?: { code?: string; retryable?: boolean; retry_after_seconds?: number } }).error;
    return { response, code: error?.code?.toUpperCase(), retryable: error?.retryable, hint: error?.retry_after_seconds };
  } catch {
    return { response };
  }
}

function isStream(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').includes('text/event-stream');
}

/** One attempt bounded by `timeoutMs` and the caller's signal; never rejects with a non-Fundkit error. */
async function attempt(policy: RetryPolicy, url: string, init: RequestInit, budgetMs: number): Promise<Outcome & { hint?: number }> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(policy.signal?.reason);
  policy.signal?.addEventListener('abort', onAbort, { once: true });
  const timeoutMs = Math.max(0, Math.min(policy.timeoutMs, budgetMs));
  const timer = setTimeout(() => controller.abort(new TimeoutError(`Request timed out after ${timeoutMs} ms`, { code: 'TIMEOUT', retryable: true })), timeoutMs);
  try {
    const response = await policy.fetch(url, { ...init, signal: controller.signal });
    if (response.status === 204 || isStream(response)) return { response };
    // Buffer the body inside the timeout: a server that stalls mid-body is a timeout too.
    const read = new BufferedResponse(await readBody(response.body), response);
    return read.ok ? { response: read } : await inspect(read);
  } catch (cause) {
    return { error: toFundkitError(cause, policy.signal, controller.signal) };
  } finally {
    clearTimeout(timer);
    policy.signal?.removeEventListener('abort', onAbort);
  }
}

function toFundkitError(cause: unknown, userSignal: AbortSignal | undefined, signal: AbortSignal): FundkitError {
  if (userSignal?.aborted) return new UserAbortError('Request aborted by the caller', { code: 'ABORTED', retryable: false }, { cause });
  if (signal.aborted && signal.reason instanceof TimeoutError) return signal.reason;
  if (cause instanceof FundkitError) return cause;
  const message = cause instanceof Error ? cause.message : String(cause);
  return new ConnectionError(`Connection error: ${message}`, { code: 'CONNECTION_ERROR', retryable: true }, { cause });
}

async function requestInit(request: Request): Promise<RequestInit> {
  // Buffered once so every attempt resends identical bytes (and the same Idempotency-Key header).
  const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
  return { method: request.method, headers: request.headers, body: body && body.byteLength > 0 ? body : undefined, redirect: request.redirect };
}

/**
 * A `fetch` that retries with exponential backoff and jitter, honours Retry-After (capped at
 * 60 s), bounds each attempt by `timeoutMs` and the whole call by `totalTimeoutMs`. It is given
 * to openapi-fetch as its transport, so typed calls and `fk.raw` share one policy.
 */
export function createRetryingFetch(policy: RetryPolicy): (input: Request | PendingRequest) => Promise<Response> {
  return async (request) => {
    // A typed call's init is resent as is: its body is openapi-fetch's serialized one (a string, bytes, a Blob).
    const init = request instanceof PendingRequest ? request.init : await requestInit(request);
    const deadline = Date.now() + policy.totalTimeoutMs;
    const repeatable = canRepeat(request);
    for (let retryIndex = 0; ; retryIndex++) {
      const outcome = await attempt(policy, request.url, init, deadline - Date.now());
      if ('error' in outcome && retryIndex === 0 && request instanceof PendingRequest) request.assertValid();
      const done = retryIndex >= policy.maxRetries || !shouldRetry(outcome, repeatable);
      const delay = done ? 0 : delayFor(outcome, retryIndex, 'hint' in outcome ? outcome.hint : undefined);
      if (done || Date.now() + delay >= deadline) {
        if ('error' in outcome) throw outcome.error;
        return outcome.response;
      }
      policy.logger?.warn?.('fundkit: retrying request', { method: request.method, url: request.url, retry: retryIndex + 1, delayMs: Math.round(delay), status: 'response' in outcome ? outcome.response.status : undefined });
      await sleep(delay, policy.signal).catch((cause: unknown) => {
        throw new UserAbortError('Request aborted by the caller', { code: 'ABORTED', retryable: false }, { cause });
      });
    }
  };
}
