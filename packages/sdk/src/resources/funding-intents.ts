import { idempotencyKey } from '../core/idempotency.js';
import type { RequestOptions } from '../core/options.js';
import { APIResource } from '../core/resource.js';
import type { QueryParams, RequestBody } from '../core/types.js';

/** Funding intents: an amount required in an asset at a destination, and its lifecycle. */
export class FundingIntents extends APIResource {
  /** Creates an intent (`createFundingIntent`); an Idempotency-Key is sent automatically. */
  create(body: RequestBody<'createFundingIntent'>, options?: RequestOptions) {
    const key = idempotencyKey(options);
    return this._client.request(options, (init) =>
      this._client.raw.POST('/v1/funding-intents', { params: { header: { 'Idempotency-Key': key } }, body, ...init }));
  }

  /** Retrieves an intent with its deposit account, instructions, payment and settlement. */
  retrieve(id: string, options?: RequestOptions) {
    return this._client.request(options, (init) =>
      this._client.raw.GET('/v1/funding-intents/{id}', { params: { path: { id } }, ...init }));
  }

  /** Lists intents newest first; `await` for a page or `for await` for every intent. */
  list(query: QueryParams<'listFundingIntents'> = {}, options?: RequestOptions) {
    return this._client.paginate(options, (cursor, init) =>
      this._client.raw.GET('/v1/funding-intents', { params: { query: { ...query, cursor } }, ...init }));
  }

  /** Cancels an intent that has received nothing (else 409 ConflictError). */
  cancel(id: string, options?: RequestOptions) {
    const key = idempotencyKey(options);
    return this._client.request(options, (init) =>
      this._client.raw.POST('/v1/funding-intents/{id}/cancel', { params: { path: { id }, header: { 'Idempotency-Key': key } }, ...init }));
  }

  /** Prices every way the intent can be paid (each option is a quote to accept). */
  options(id: string, options?: RequestOptions) {
    return this._client.request(options, (init) =>
      this._client.raw.GET('/v1/funding_intents/{id}/options', { params: { path: { id } }, ...init }));
  }

  /** Lists the payments observed for an intent. */
  payments(id: string, query: QueryParams<'listFundingIntentPayments'> = {}, options?: RequestOptions) {
    return this._client.paginate(options, (cursor, init) =>
      this._client.raw.GET('/v1/funding-intents/{id}/payments', { params: { path: { id }, query: { ...query, cursor } }, ...init }));
  }

  /** Refunds what is left of a payment of this intent (same as `refunds.create`). */
  refund(id: string, paymentId: string, body: RequestBody<'createRefund'>, options?: RequestOptions) {
    const key = idempotencyKey(options);
    return this._client.request(options, (init) =>
      this._client.raw.POST('/v1/funding-intents/{id}/payments/{paymentId}/refunds', {
        params: { path: { id, paymentId }, header: { 'Idempotency-Key': key } }, body, ...init,
      }));
  }

  /** Lists the refunds of one payment of this intent (same as `refunds.listForPayment`). */
  listRefunds(id: string, paymentId: string, query: QueryParams<'listPaymentRefunds'> = {}, options?: RequestOptions) {
    return this._client.paginate(options, (cursor, init) =>
      this._client.raw.GET('/v1/funding-intents/{id}/payments/{paymentId}/refunds', {
        params: { path: { id, paymentId }, query: { ...query, cursor } }, ...init,
      }));
  }
}
