import type { RequestOptions } from '../core/options.js';
import { APIResource } from '../core/resource.js';
import type { QueryParams } from '../core/types.js';

/** Requests made with the application's keys (kept 30 days). */
export class RequestLogs extends APIResource {
  list(query: QueryParams<'listRequestLogs'> = {}, options?: RequestOptions) {
    return this._client.paginate(options, (cursor, init) =>
      this._client.raw.GET('/v1/request_logs', { params: { query: { ...query, cursor } }, ...init }));
  }

  retrieve(id: string, options?: RequestOptions) {
    return this._client.request(options, (init) =>
      this._client.raw.GET('/v1/request_logs/{id}', { params: { path: { id } }, ...init }));
  }
}
