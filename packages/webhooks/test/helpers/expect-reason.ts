import { expect } from 'vitest';
import { WebhookVerificationError, type WebhookVerificationReason } from '../../src/index.js';

/** Awaits a verification that must fail, and returns its error after checking the reason. */
export async function expectRejection(
  verification: Promise<unknown>,
  reason: WebhookVerificationReason,
): Promise<WebhookVerificationError> {
  const error = await verification.then(
    () => expect.unreachable(`expected ${reason}, but verification succeeded`),
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  expect((error as WebhookVerificationError).reason).toBe(reason);
  return error as WebhookVerificationError;
}
