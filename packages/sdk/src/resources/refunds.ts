import { idempotencyKey } from '../core/idempotency.js';
import type { RequestOptions } from '../core/options.js';
import { APIResource } from '../core/resource.js';
import type { QueryParams, RequestBody } from '../core/types.js';

/** Refunds of payments that did not (or not wholly) go to the application. */
export class Refunds extends APIResource {
  /**
   * Refunds what is left of a payment. 409 ConflictError while another refund of it is in
   * progress; 422 ValidationError when it was refunded in full.
   */
  create(fundingIntentId: string, paymentId: string, body: RequestBody<'createRefund'>, options?: RequestOptions) {
    const key = idempotencyKey(options);
    return this._client.request(options, (init) =>
      this._client.raw.POST('/v1/funding-intents/{id}/payments/{paymentId}/refunds', {
        params: { path: { id: fundingIntentId, paymentId }, header: { 'Idempotency-Key': key } }, body, ...init,
      }));
  }

  retrieve(id: string, options?: RequestOptions) {
    return this._client.request(options, (init) =>
      this._client.raw.GET('/v1/refunds/{id}', { params: { path: { id } }, ...init }));
  }

  list(query: QueryParams<'listRefunds'> = {}, options?: RequestOptions) {
    return this._client.paginate(options, (cursor, init) =>
      this._client.raw.GET('/v1/refunds', { params: { query: { ...query, cursor } }, ...init }));
  }

  /** The refunds of one payment. */
  listForPayment(fundingIntentId: string, paymentId: string, query: QueryParams<'listPaymentRefunds'> = {}, options?: RequestOptions) {
    return this._client.paginate(options, (cursor, init) =>
      this._client.raw.GET('/v1/funding-intents/{id}/payments/{paymentId}/refunds', {
        params: { path: { id: fundingIntentId, paymentId }, query: { ...query, cursor } }, ...init,
      }));
  }
}
