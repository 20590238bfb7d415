import { idempotencyKey } from '../core/idempotency.js';
import type { RequestOptions } from '../core/options.js';
import { APIResource } from '../core/resource.js';
import type { QueryParams, RequestBody } from '../core/types.js';

/** Webhook endpoints, their secrets and deliveries. Verify deliveries with `@fundkit/webhooks`. */
export class WebhookEndpoints extends APIResource {
  /** Registers an endpoint; the response carries its `secret` (shown once). */
  create(body: RequestBody<'createWebhookEndpoint'>, options?: RequestOptions) {
    const key = idempotencyKey(options);
    return this._client.request(options, (init) =>
      this._client.raw.POST('/v1/webhooks', { params: { header: { 'Idempotency-Key': key } }, body, ...init }));
  }

  list(query: QueryParams<'listWebhookEndpoints'> = {}, options?: RequestOptions) {
    return this._client.paginate(options, (cursor, init) =>
      this._client.raw.GET('/v1/webhooks', { params: { query: { ...query, cursor } }, ...init }));
  }

  retrieve(id: string, options?: RequestOptions) {
    return this._client.request(options, (init) =>
      this._client.raw.GET('/v1/webhooks/{id}', { params: { path: { id } }, ...init }));
  }

  update(id: string, body: RequestBody<'updateWebhookEndpoint'>, options?: RequestOptions) {
    return this._client.request(options, (init) =>
      this._client.raw.PATCH('/v1/webhooks/{id}', { params: { path: { id } }, body, ...init }));
  }

  /** Deletes an endpoint (`del`, since `delete` reads badly as a method name). */
  del(id: string, options?: RequestOptions) {
    return this._client.request(options, (init) =>
      this._client.raw.DELETE('/v1/webhooks/{id}', { params: { path: { id } }, ...init }));
  }

  /** Issues a new secret; the old one stays valid for 24 hours. */
  rotateSecret(id: string, options?: RequestOptions) {
    const key = idempotencyKey(options);
    return this._client.request(options, (init) =>
      this._client.raw.POST('/v1/webhooks/{id}/rotate-secret', { params: { path: { id }, header: { 'Idempotency-Key': key } }, ...init }));
  }

  /** Ends the previous secret's validity now (a leaked secret): deliveries are signed with the current one only. */
  expirePreviousSecret(id: string, options?: RequestOptions) {
    const key = idempotencyKey(options);
    return this._client.request(options, (init) =>
      this._client.raw.POST('/v1/webhooks/{id}/expire-previous-secret', { params: { path: { id }, header: { 'Idempotency-Key': key } }, ...init }));
  }

  /** Sends a signed `webhook.test` ping to the endpoint. */
  sendTest(id: string, options?: RequestOptions) {
    const key = idempotencyKey(options);
    return this._client.request(options, (init) =>
      this._client.raw.POST('/v1/webhooks/{id}/test', { params: { path: { id }, header: { 'Idempotency-Key': key } }, ...init }));
  }

  /** Delivery attempts of one endpoint, e.g. `{ status }` or `{ event_id }`. */
  deliveries(id: string, query: QueryParams<'listWebhookDeliveries'> = {}, options?: RequestOptions) {
    return this._client.paginate(options, (cursor, init) =>
      this._client.raw.GET('/v1/webhooks/{id}/deliveries', { params: { path: { id }, query: { ...query, cursor } }, ...init }));
  }

  /** Queues one delivery again. */
  redeliver(id: string, deliveryId: string, options?: RequestOptions) {
    const key = idempotencyKey(options);
    return this._client.request(options, (init) =>
      this._client.raw.POST('/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver', {
        params: { path: { id, deliveryId }, header: { 'Idempotency-Key': key } }, ...init,
      }));
  }
}
