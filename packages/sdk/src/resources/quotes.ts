import { idempotencyKey } from '../core/idempotency.js';
import type { RequestOptions } from '../core/options.js';
import { APIResource } from '../core/resource.js';
import type { QueryParams, RequestBody } from '../core/types.js';

/** Quotes: what a payer must send from a chosen source asset. */
export class Quotes extends APIResource {
  /** Gets a locked quote, simple form (`POST /v1/quotes`, locked 30 s). */
  create(body: RequestBody<'createSimpleQuote'>, options?: RequestOptions) {
    const key = idempotencyKey(options);
    return this._client.request(options, (init) =>
      this._client.raw.POST('/v1/quotes', { params: { header: { 'Idempotency-Key': key } }, body, ...init }));
  }

  retrieve(id: string, options?: RequestOptions) {
    return this._client.request(options, (init) =>
      this._client.raw.GET('/v1/quotes/{id}', { params: { path: { id } }, ...init }));
  }

  /** Lists quotes (default page size 20), e.g. `{ funding_intent_id }`. */
  list(query: QueryParams<'listQuotes'> = {}, options?: RequestOptions) {
    return this._client.paginate(options, (cursor, init) =>
      this._client.raw.GET('/v1/quotes', { params: { query: { ...query, cursor } }, ...init }));
  }

  /**
   * Accepts a quote chosen from `fundingIntents.options`. After expiry it throws
   * QuoteExpiredError: fetch the options again and accept a fresh quote.
   */
  accept(id: string, options?: RequestOptions) {
    const key = idempotencyKey(options);
    return this._client.request(options, (init) =>
      this._client.raw.POST('/v1/quotes/{id}/accept', { params: { path: { id }, header: { 'Idempotency-Key': key } }, ...init }));
  }
}
