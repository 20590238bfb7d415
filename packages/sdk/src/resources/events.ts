import type { RequestOptions } from '../core/options.js';
import { APIResource } from '../core/resource.js';
import type { QueryParams } from '../core/types.js';

/** Events, as delivered to webhook endpoints. */
export class Events extends APIResource {
  list(query: QueryParams<'listEvents'> = {}, options?: RequestOptions) {
    return this._client.paginate(options, (cursor, init) =>
      this._client.raw.GET('/v1/events', { params: { query: { ...query, cursor } }, ...init }));
  }

  retrieve(id: string, options?: RequestOptions) {
    return this._client.request(options, (init) =>
      this._client.raw.GET('/v1/events/{id}', { params: { path: { id } }, ...init }));
  }
}
