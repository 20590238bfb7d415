import type { ApiClient } from './client.js';

/** Base of every resource: holds the shared client and nothing else. */
export abstract class APIResource {
  protected readonly _client: ApiClient;

  constructor(client: ApiClient) {
    this._client = client;
  }
}
