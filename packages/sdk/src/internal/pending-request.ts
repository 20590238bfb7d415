/**
 * What openapi-fetch builds a typed call's request as, in place of a Request: the URL and init as
 * given. The retry transport hands them to fetch, which builds the one Request of each attempt. A
 * real Request here would parse the URL, validate every header and make an AbortSignal (~7 µs in
 * Node 20) only for the transport to take it apart again. Nothing but the transport sees it: the
 * client switches back to real Requests as soon as middleware is added (middleware may read them).
 */
export class PendingRequest {
  readonly url: string;
  readonly init: RequestInit;
  readonly headers: Headers;

  constructor(url: string, init: RequestInit = {}) {
    this.url = url;
    this.init = init;
    this.headers = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
  }

  get method(): string {
    return this.init.method ?? 'GET';
  }

  /**
   * Throws what building the Request would have thrown (a malformed URL), for a call whose first
   * attempt failed: such a call fails at once with that TypeError, unretried, as it did before.
   */
  assertValid(): void {
    new Request(this.url, this.init);
  }
}
