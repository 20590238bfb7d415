import { idempotencyKey } from '../core/idempotency.js';
import type { RequestOptions } from '../core/options.js';
import { APIResource } from '../core/resource.js';
import type { RequestBody } from '../core/types.js';

/** Sandbox-only helpers (test keys) to drive an intent through its lifecycle in your CI. */
export class TestHelpers extends APIResource {
  /** A funded sandbox payer signs and submits a real payment to the intent's deposit account. */
  pay(fundingIntentId: string, body: RequestBody<'createTestPayment'>, options?: RequestOptions) {
    const key = idempotencyKey(options);
    return this._client.request(options, (init) =>
      this._client.raw.POST('/v1/test_helpers/funding-intents/{id}/payments', {
        params: { path: { id: fundingIntentId }, header: { 'Idempotency-Key': key } }, body, ...init,
      }));
  }

  /** Expires the intent now. */
  expire(fundingIntentId: string, options?: RequestOptions) {
    const key = idempotencyKey(options);
    return this._client.request(options, (init) =>
      this._client.raw.POST('/v1/test_helpers/funding-intents/{id}/expire', {
        params: { path: { id: fundingIntentId }, header: { 'Idempotency-Key': key } }, ...init,
      }));
  }

  /** Makes the intent's next settlement fail (FAILED intents, SETTLEMENT_FAILED refunds). */
  failSettlement(fundingIntentId: string, options?: RequestOptions) {
    const key = idempotencyKey(options);
    return this._client.request(options, (init) =>
      this._client.raw.POST('/v1/test_helpers/funding-intents/{id}/fail_settlement', {
        params: { path: { id: fundingIntentId }, header: { 'Idempotency-Key': key } }, ...init,
      }));
  }
}
