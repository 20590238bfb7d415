import { idempotencyKey } from '../core/idempotency.js';
import type { RequestOptions } from '../core/options.js';
import { APIResource } from '../core/resource.js';

/** Route executions: the conversion and delivery of an accepted quote. */
export class RouteExecutions extends APIResource {
  retrieve(id: string, options?: RequestOptions) {
    return this._client.request(options, (init) =>
      this._client.raw.GET('/v1/route-executions/{id}', { params: { path: { id } }, ...init }));
  }

  /** Retries a FAILED execution (else 409 EXECUTION_NOT_FAILED). */
  retry(id: string, options?: RequestOptions) {
    const key = idempotencyKey(options);
    return this._client.request(options, (init) =>
      this._client.raw.POST('/v1/route-executions/{id}/retry', { params: { path: { id }, header: { 'Idempotency-Key': key } }, ...init }));
  }

  /** Resumes a paused execution (else 409 EXECUTION_NOT_RESUMABLE). */
  resume(id: string, options?: RequestOptions) {
    const key = idempotencyKey(options);
    return this._client.request(options, (init) =>
      this._client.raw.POST('/v1/route-executions/{id}/resume', { params: { path: { id }, header: { 'Idempotency-Key': key } }, ...init }));
  }
}
