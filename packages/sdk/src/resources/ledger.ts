import type { RequestOptions } from '../core/options.js';
import { APIResource } from '../core/resource.js';
import type { QueryParams } from '../core/types.js';

/** The application's double-entry ledger. */
export class Ledger extends APIResource {
  /** Balances per asset (available, pending); one list, not paginated. */
  balances(options?: RequestOptions) {
    return this._client.request(options, (init) => this._client.raw.GET('/v1/ledger/balances', { ...init }));
  }

  /** Ledger entries newest first, e.g. `{ asset }` or `{ funding_intent_id }`. */
  entries(query: QueryParams<'listLedgerEntries'> = {}, options?: RequestOptions) {
    return this._client.paginate(options, (cursor, init) =>
      this._client.raw.GET('/v1/ledger/entries', { params: { query: { ...query, cursor } }, ...init }));
  }
}
