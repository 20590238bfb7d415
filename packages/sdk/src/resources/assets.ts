import type { RequestOptions } from '../core/options.js';
import { APIResource } from '../core/resource.js';

/** Supported assets of the key's environment (a publishable key is enough). */
export class Assets extends APIResource {
  /** Every supported asset; one list, not paginated. */
  list(options?: RequestOptions) {
    return this._client.request(options, (init) => this._client.raw.GET('/v1/assets', { ...init }));
  }

  /** One asset by id or code (`USDC`). */
  retrieve(id: string, options?: RequestOptions) {
    return this._client.request(options, (init) =>
      this._client.raw.GET('/v1/assets/{id}', { params: { path: { id } }, ...init }));
  }
}
