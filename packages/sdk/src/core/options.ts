import type { Environment } from '../internal/env.js';
import type { FetchLike, Logger } from './retry.js';

export type { Environment, FetchLike, Logger };

/** Options of `new Fundkit(...)`. */
export interface ClientOptions {
  /**
   * Secret key (`sk_test_…` sandbox, `sk_live_…` production). Defaults to the `FUNDKIT_API_KEY`
   * environment variable. An account session (`acs_…`) or operator key works for the dashboard
   * and platform operations. Never ship a secret key to a browser.
   */
  apiKey?: string | undefined;
  /**
   * API origin. Defaults by `environment`: production `https://api.fundkit.dev`, sandbox
   * `https://sandbox.api.fundkit.dev`. The reference server listens on `http://localhost:4010`.
   */
  baseUrl?: string | undefined;
  /**
   * `sandbox` or `production`. Inferred from the key prefix when omitted. A key of the other
   * environment is refused before any request is made.
   */
  environment?: Environment | undefined;
  /** Retries after the first attempt for retryable failures. Default 2. */
  maxRetries?: number | undefined;
  /** Time limit of one attempt in milliseconds. Default 60 000. */
  timeoutMs?: number | undefined;
  /**
   * Time limit of a whole call, attempts and backoff waits included, in milliseconds.
   * Default `timeoutMs × (maxRetries + 1) + 8 s × maxRetries` (every attempt plus the longest
   * backoff). No retry starts whose wait would end past it; a server asking to wait longer
   * (Retry-After) gets the error thrown at once, with `retryAfterSeconds`.
   */
  totalTimeoutMs?: number | undefined;
  /** A `fetch` implementation; defaults to `globalThis.fetch`. */
  fetch?: FetchLike | undefined;
  /** Receives a `warn` for every retry (`console` works). */
  logger?: Logger | undefined;
  /** Headers added to every request. */
  defaultHeaders?: Record<string, string> | undefined;
  /**
   * With an account session (`acs_…`) as `apiKey`: the application (`app_…`) of the account to act
   * for, sent as `Fundkit-Application`. The session then reaches what that application's secret key
   * reaches, as the dashboard does. Ignored by the server with an API key.
   */
  application?: string | undefined;
  /**
   * With `application`: `test` (the server's default) or `live`, sent as `Fundkit-Environment`.
   * Not `environment`, which picks the API origin.
   */
  applicationEnvironment?: 'test' | 'live' | undefined;
}

/** Options accepted by every method as its last argument. */
export interface RequestOptions {
  /**
   * Idempotency-Key for this call. When omitted, operations that accept one get a fresh UUID,
   * which is reused on every retry of the call. Pass your own to make a call safe to repeat
   * across process restarts (e.g. your order id).
   */
  idempotencyKey?: string | undefined;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number | undefined;
  /** Overrides the client's `totalTimeoutMs` for this call. */
  totalTimeoutMs?: number | undefined;
  /** Overrides the client's `maxRetries` for this call. */
  maxRetries?: number | undefined;
  /** Extra headers for this call. */
  headers?: Record<string, string> | undefined;
  /** Aborts the call (and any pending retry) when signalled. */
  signal?: AbortSignal | undefined;
  /**
   * A different bearer credential for this call only: an account session for `auth` and
   * `applications`, an operator key for `platform`, a checkout session token for checkout reads.
   */
  authToken?: string | undefined;
}
