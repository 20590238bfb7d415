import type { RequestOptions } from '../core/options.js';
import { APIResource } from '../core/resource.js';
import type { QueryParams } from '../core/types.js';

/** Settlements: delivery to the destination, with on-chain evidence. */
export class Settlements extends APIResource {
  list(query: QueryParams<'listSettlements'> = {}, options?: RequestOptions) {
    return this._client.paginate(options, (cursor, init) =>
      this._client.raw.GET('/v1/settlements', { params: { query: { ...query, cursor } }, ...init }));
  }

  retrieve(id: string, options?: RequestOptions) {
    return this._client.request(options, (init) =>
      this._client.raw.GET('/v1/settlements/{id}', { params: { path: { id } }, ...init }));
  }
}
