import type { RequestOptions } from '../core/options.js';
import { APIResource } from '../core/resource.js';
import type { QueryParams, RequestBody } from '../core/types.js';

/** Operator operations (`/v1/platform/*`); authenticate with the operator key. */
export class Platform extends APIResource {
  readonly applications = new PlatformApplications(this._client);
  readonly assets = new PlatformAssets(this._client);
  readonly unattributedPayments = new PlatformUnattributedPayments(this._client);
}

export class PlatformApplications extends APIResource {
  /** Applications of every account. */
  list(query: QueryParams<'listPlatformApplications'> = {}, options?: RequestOptions) {
    return this._client.paginate(options, (cursor, init) =>
      this._client.raw.GET('/v1/platform/applications', { params: { query: { ...query, cursor } }, ...init }));
  }

  deactivate(id: string, options?: RequestOptions) {
    return this._client.request(options, (init) =>
      this._client.raw.POST('/v1/platform/applications/{id}/deactivate', { params: { path: { id } }, ...init }));
  }

  reactivate(id: string, options?: RequestOptions) {
    return this._client.request(options, (init) =>
      this._client.raw.POST('/v1/platform/applications/{id}/reactivate', { params: { path: { id } }, ...init }));
  }
}

export class PlatformAssets extends APIResource {
  /** Changes a supported asset (e.g. enables or disables it). */
  update(id: string, body: RequestBody<'updatePlatformAsset'>, options?: RequestOptions) {
    return this._client.request(options, (init) =>
      this._client.raw.PATCH('/v1/platform/assets/{id}', { params: { path: { id } }, body, ...init }));
  }
}

/** Payments into a collection account that no muxed intent claims: recorded, refundable by the operator. */
export class PlatformUnattributedPayments extends APIResource {
  /** The newest, at most `limit` (one page: the list is a worklist, not an archive). */
  list(query: QueryParams<'listUnattributedPayments'> = {}, options?: RequestOptions) {
    return this._client.request(options, (init) =>
      this._client.raw.GET('/v1/platform/unattributed_payments', { params: { query }, ...init }));
  }

  /** Pays it all back, to the payer unless `destination_address` says otherwise; resolves once REFUNDED. */
  refund(id: string, body: RequestBody<'refundUnattributedPayment'> = {}, options?: RequestOptions) {
    return this._client.request(options, (init) =>
      this._client.raw.POST('/v1/platform/unattributed_payments/{id}/refund', { params: { path: { id } }, body, ...init }));
  }
}
