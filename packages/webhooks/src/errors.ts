/**
 * Why a webhook failed verification. Stable codes: switch on these, not on messages.
 *
 * Configuration errors (your code): `no_secret`, `body_not_raw`.
 * Request errors (the sender, or an attacker): everything else.
 */
export type WebhookVerificationReason =
  | 'no_secret'
  | 'body_not_raw'
  | 'missing_signature'
  | 'malformed_signature'
  | 'signature_mismatch'
  | 'missing_timestamp'
  | 'timestamp_mismatch'
  | 'timestamp_outside_tolerance'
  | 'invalid_json'
  | 'invalid_event';

/** Thrown by every verifier in this package. `reason` says what failed; `message` says how to fix it. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  readonly reason: WebhookVerificationReason;

  constructor(reason: WebhookVerificationReason, message: string) {
    super(message);
    this.reason = reason;
  }

  /**
   * True for mistakes in the receiving code rather than in the request: answer those with a
   * 500 (and fix the code), not a 400.
   */
  get isConfigurationError(): boolean {
    return this.reason === 'no_secret' || this.reason === 'body_not_raw';
  }
}
