import type { RequestOptions } from '../core/options.js';
import { APIResource } from '../core/resource.js';

/** What answers at the base URL (GET /v1): the API's name, the server's version, its network, links. Public. */
export class About extends APIResource {
  retrieve(options?: RequestOptions) {
    return this._client.request(options, (init) => this._client.raw.GET('/v1', { ...init }));
  }
}
