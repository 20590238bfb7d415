import * as openapiFetch from 'openapi-fetch';
import type { Client } from 'openapi-fetch';
import type { paths } from '../generated/openapi.js';
import { MAX_BACKOFF_MS } from '../internal/backoff.js';
import { mergeHeaders } from '../internal/headers.js';
import { PendingRequest } from '../internal/pending-request.js';
import { APIPromise, type WithResponse } from './api-promise.js';
import { errorFromResponse } from './error-envelope.js';
import type { ResolvedConfig } from './config.js';
import type { RequestOptions } from './options.js';
import { PagePromise, type ListEnvelope } from './pagination.js';
import { createRetryingFetch } from './retry.js';

/**
 * openapi-fetch's CJS build sets `exports.default` without `__esModule`, so from our CJS bundle
 * the default import is the whole exports object; unwrap it once here.
 */
const createClient = ((openapiFetch.default as unknown as { default?: unknown }).default ?? openapiFetch.default) as typeof openapiFetch.default;

/** The openapi-fetch client over the whole contract. */
export type RawClient = Client<paths, 'application/json'>;

/** What a resource spreads into its openapi-fetch call: the per-call transport and headers. */
export interface SendInit {
  fetch: (input: Request | PendingRequest) => Promise<Response>;
  headers: Record<string, string>;
  /** The class openapi-fetch builds the request with (see PendingRequest); undefined: Request. */
  Request: typeof Request | undefined;
}

/** openapi-fetch's result, loosened so `T` is inferred from the success branch. */
export interface SendResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

export type Send<T> = (init: SendInit) => Promise<SendResult<T>>;

/** Every attempt at its full time plus the longest backoff between them (8 s each). */
function defaultDeadline(timeoutMs: number, maxRetries: number): number {
  return timeoutMs * (maxRetries + 1) + MAX_BACKOFF_MS * maxRetries;
}

/** Resource-agnostic machinery shared by every resource: transport, errors, pagination. */
export class ApiClient {
  readonly raw: RawClient;
  readonly config: ResolvedConfig;
  #Request: typeof Request | undefined = PendingRequest as unknown as typeof Request;
  /** What a call without options sends with, built once rather than per call. */
  #plain: SendInit;

  constructor(config: ResolvedConfig) {
    this.config = config;
    this.raw = createClient<paths>({
      baseUrl: config.baseUrl,
      fetch: this.transport(undefined),
      headers: mergeHeaders(config.defaultHeaders, this.authorization(config.apiKey)),
    });
    this.#plain = this.build(undefined);
    // Middleware added to `raw` sees typed calls' requests too, and may read them as Requests.
    const use = this.raw.use;
    this.raw.use = (...middleware) => {
      this.#Request = undefined;
      this.#plain = this.build(undefined);
      use(...middleware);
    };
  }

  private authorization(token: string | undefined): Record<string, string> {
    return token ? { authorization: `Bearer ${token}` } : {};
  }

  private transport(options: RequestOptions | undefined): SendInit['fetch'] {
    const maxRetries = options?.maxRetries ?? this.config.maxRetries;
    const timeoutMs = options?.timeoutMs ?? this.config.timeoutMs;
    return createRetryingFetch({
      fetch: this.config.fetch,
      maxRetries,
      timeoutMs,
      totalTimeoutMs: options?.totalTimeoutMs ?? this.config.totalTimeoutMs ?? defaultDeadline(timeoutMs, maxRetries),
      signal: options?.signal,
      logger: this.config.logger,
    });
  }

  private build(options: RequestOptions | undefined): SendInit {
    return {
      fetch: this.transport(options),
      headers: mergeHeaders(options?.headers, options?.authToken ? this.authorization(options.authToken) : undefined),
      Request: this.#Request,
    };
  }

  private async execute<T>(options: RequestOptions | undefined, send: Send<T>): Promise<WithResponse<T>> {
    const { data, error, response } = await send(options ? this.build(options) : this.#plain);
    if (!response.ok) throw errorFromResponse(response.status, error, response.headers);
    return { data: data as T, response, requestId: response.headers.get('x-request-id') };
  }

  /** Runs one typed call; non-2xx answers become FundkitError subclasses. */
  request<T>(options: RequestOptions | undefined, send: Send<T>): APIPromise<T> {
    return new APIPromise(this.execute(options, send));
  }

  /** Runs a list call page by page; `send` gets the cursor of the page to fetch. */
  paginate<Item>(
    options: RequestOptions | undefined,
    send: (cursor: string | undefined, init: SendInit) => Promise<SendResult<ListEnvelope<Item>>>,
  ): PagePromise<Item> {
    return new PagePromise<Item>((cursor) => this.execute(options, (init) => send(cursor, init)));
  }
}
