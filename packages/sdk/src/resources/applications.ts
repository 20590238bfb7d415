import type { RequestOptions } from '../core/options.js';
import { APIResource } from '../core/resource.js';
import type { QueryParams, RequestBody } from '../core/types.js';

/** Logo content types the API accepts. */
export type LogoContentType = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/svg+xml';

/** Applications of the signed-in account (authenticate with an account session). */
export class Applications extends APIResource {
  readonly keys = new ApplicationKeys(this._client);
  readonly logo = new ApplicationLogo(this._client);

  create(body: RequestBody<'createApplication'>, options?: RequestOptions) {
    return this._client.request(options, (init) => this._client.raw.POST('/v1/applications', { body, ...init }));
  }

  list(query: QueryParams<'listApplications'> = {}, options?: RequestOptions) {
    return this._client.paginate(options, (cursor, init) =>
      this._client.raw.GET('/v1/applications', { params: { query: { ...query, cursor } }, ...init }));
  }

  retrieve(id: string, options?: RequestOptions) {
    return this._client.request(options, (init) =>
      this._client.raw.GET('/v1/applications/{id}', { params: { path: { id } }, ...init }));
  }

  /** Changes the name or the settlement address. */
  update(id: string, body: RequestBody<'updateApplication'>, options?: RequestOptions) {
    return this._client.request(options, (init) =>
      this._client.raw.PATCH('/v1/applications/{id}', { params: { path: { id } }, body, ...init }));
  }
}

/** API keys of an application: the secret is in the create response only. */
export class ApplicationKeys extends APIResource {
  create(applicationId: string, body: RequestBody<'createApiKey'>, options?: RequestOptions) {
    return this._client.request(options, (init) =>
      this._client.raw.POST('/v1/applications/{id}/keys', { params: { path: { id: applicationId } }, body, ...init }));
  }

  /** Keys, masked. */
  list(applicationId: string, query: QueryParams<'listApiKeys'> = {}, options?: RequestOptions) {
    return this._client.paginate(options, (cursor, init) =>
      this._client.raw.GET('/v1/applications/{id}/keys', { params: { path: { id: applicationId }, query: { ...query, cursor } }, ...init }));
  }

  revoke(applicationId: string, keyId: string, options?: RequestOptions) {
    return this._client.request(options, (init) =>
      this._client.raw.POST('/v1/applications/{id}/keys/{keyId}/revoke', { params: { path: { id: applicationId, keyId } }, ...init }));
  }
}

/** The application's logo: PNG, JPEG, WebP or SVG; square; 64–1024 px; at most 512 KiB. */
export class ApplicationLogo extends APIResource {
  /** Uploads the raw image; resolves with the application (with its `logo_url`). */
  upload(applicationId: string, image: Blob | ArrayBuffer | Uint8Array | string, contentType: LogoContentType, options?: RequestOptions) {
    return this._client.request(options, (init) =>
      this._client.raw.PUT('/v1/applications/{id}/logo', {
        params: { path: { id: applicationId } },
        // The contract types image bodies as strings; the bytes go through untouched.
        body: image as never,
        bodySerializer: (raw: unknown) => raw as BodyInit,
        ...init,
        headers: { ...init.headers, 'content-type': contentType },
      }));
  }

  /** Downloads the logo as a Blob (public: no credential needed). */
  retrieve(applicationId: string, options?: RequestOptions) {
    return this._client.request<Blob>(options, (init) =>
      this._client.raw.GET('/v1/applications/{id}/logo', { params: { path: { id: applicationId } }, parseAs: 'blob', ...init }));
  }
}
