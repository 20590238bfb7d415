import { idempotencyKey } from '../core/idempotency.js';
import type { RequestOptions } from '../core/options.js';
import { APIResource } from '../core/resource.js';
import type { RequestBody, Schema } from '../core/types.js';
import { readSse } from '../internal/sse.js';

type HandoffBody = RequestBody<'createCheckoutHandoff'>;
/** The handoff body, with `code_challenge_method` optional (it defaults to S256). */
export type HandoffParams = Omit<HandoffBody, 'code_challenge_method'> & Partial<Pick<HandoffBody, 'code_challenge_method'>>;

/**
 * Checkout sessions: a browser session for one funding intent. Every POST of this family
 * requires an Idempotency-Key (8–200 chars); the SDK generates one per call.
 */
export class CheckoutSessions extends APIResource {
  /** Creates a session for an existing intent (secret key); returns `session_token` and `url`. */
  create(body: RequestBody<'createCheckoutSession'>, options?: RequestOptions) {
    const key = idempotencyKey(options);
    return this._client.request(options, (init) =>
      this._client.raw.POST('/v1/checkout_sessions', { params: { header: { 'Idempotency-Key': key } }, body, ...init }));
  }

  /**
   * Obtains a single-use handoff token (about 60 s) to move the payer to another surface. Pass
   * a PKCE `code_challenge` (see `createPkcePair`) to bind it to a verifier.
   */
  handoff(id: string, body?: HandoffParams, options?: RequestOptions) {
    const key = idempotencyKey(options);
    // The method defaults to S256 in the contract; the generated type marks it required, so fill it in.
    const payload = body?.code_challenge ? { ...body, code_challenge_method: body.code_challenge_method ?? 'S256' } : undefined;
    return this._client.request(options, (init) =>
      this._client.raw.POST('/v1/checkout_sessions/{id}/handoff', { params: { path: { id }, header: { 'Idempotency-Key': key } }, body: payload, ...init }));
  }

  /**
   * Exchanges a handoff token for the session (fresh `session_token`). Server-side only: it
   * needs the secret key. `createResumeHandler` wraps it as a ready HTTP endpoint.
   */
  resume(body: RequestBody<'resumeCheckoutSession'>, options?: RequestOptions) {
    const key = idempotencyKey(options);
    return this._client.request(options, (init) =>
      this._client.raw.POST('/v1/checkout_sessions/resume', { params: { header: { 'Idempotency-Key': key } }, body, ...init }));
  }

  /** The public view of an intent (publishable key or checkout session as `authToken`). */
  publicIntent(id: string, options?: RequestOptions) {
    return this._client.request(options, (init) =>
      this._client.raw.GET('/v1/public/funding-intents/{id}', { params: { path: { id } }, ...init }));
  }

  /** The status endpoint without streaming: the public view once (polling fallback). */
  status(id: string, options?: RequestOptions) {
    return this._client.request(options, (init) =>
      this._client.raw.GET('/v1/public/funding-intents/{id}/status', { params: { path: { id } }, ...init, headers: { ...init.headers, accept: 'application/json' } }));
  }

  /**
   * Follows an intent's status over Server-Sent Events: yields the public view now, then on every
   * change. Break out of the loop (or abort `options.signal`) to close the stream.
   */
  async *statusStream(id: string, options?: RequestOptions): AsyncGenerator<Schema<'PublicFundingIntent'>> {
    const stream = await this._client.request<ReadableStream<Uint8Array>>(options, (init) =>
      this._client.raw.GET('/v1/public/funding-intents/{id}/status', {
        params: { path: { id } }, parseAs: 'stream', ...init, headers: { ...init.headers, accept: 'text/event-stream' },
      }) as Promise<{ data?: ReadableStream<Uint8Array>; response: Response }>);
    for await (const event of readSse(stream, options?.signal)) {
      if (event.event === 'status') yield JSON.parse(event.data) as Schema<'PublicFundingIntent'>;
    }
  }
}
