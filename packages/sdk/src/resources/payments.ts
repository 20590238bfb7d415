import type { RequestOptions } from '../core/options.js';
import { APIResource } from '../core/resource.js';
import type { QueryParams } from '../core/types.js';

/** Payments observed on deposit accounts. */
export class Payments extends APIResource {
  list(query: QueryParams<'listPayments'> = {}, options?: RequestOptions) {
    return this._client.paginate(options, (cursor, init) =>
      this._client.raw.GET('/v1/payments', { params: { query: { ...query, cursor } }, ...init }));
  }

  retrieve(id: string, options?: RequestOptions) {
    return this._client.request(options, (init) =>
      this._client.raw.GET('/v1/payments/{id}', { params: { path: { id } }, ...init }));
  }
}
