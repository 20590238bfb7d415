import type { RequestOptions } from '../core/options.js';
import { APIResource } from '../core/resource.js';
import type { RequestBody } from '../core/types.js';

/**
 * Dashboard accounts. `signIn` returns an account session; pass its token as `authToken` (or as
 * the client's `apiKey`) to `auth.*` and `applications.*`. It never works on API-key routes.
 */
export class Auth extends APIResource {
  signUp(body: RequestBody<'signUp'>, options?: RequestOptions) {
    return this._client.request(options, (init) => this._client.raw.POST('/v1/auth/sign-up', { body, ...init }));
  }

  verifyEmail(body: RequestBody<'verifyEmail'>, options?: RequestOptions) {
    return this._client.request(options, (init) => this._client.raw.POST('/v1/auth/verify-email', { body, ...init }));
  }

  signIn(body: RequestBody<'signIn'>, options?: RequestOptions) {
    return this._client.request(options, (init) => this._client.raw.POST('/v1/auth/sign-in', { body, ...init }));
  }

  /** Ends the account session of this request; resolves with undefined (204). */
  signOut(options?: RequestOptions) {
    return this._client.request(options, (init) => this._client.raw.POST('/v1/auth/sign-out', { ...init }));
  }

  /** The current account session. */
  session(options?: RequestOptions) {
    return this._client.request(options, (init) => this._client.raw.GET('/v1/auth/session', { ...init }));
  }
}
