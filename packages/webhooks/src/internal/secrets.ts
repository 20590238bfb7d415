import { WebhookVerificationError } from '../errors.js';

/** One webhook secret (`whsec_…`), or several while a secret is being rotated. */
export type WebhookSecrets = string | readonly string[];

/** The secrets as a non-empty list, or a `no_secret` error naming the likely cause. */
export function secretList(secrets: unknown): string[] {
  const list: unknown[] = Array.isArray(secrets) ? secrets : [secrets];
  const usable = list.filter((secret): secret is string => typeof secret === 'string' && secret !== '');
  if (usable.length === 0 || usable.length !== list.length) {
    throw new WebhookVerificationError(
      'no_secret',
      'No webhook secret given (or an empty one). Pass the endpoint secret (whsec_…) shown when the ' +
        'endpoint was created or rotated, e.g. from process.env.FUNDKIT_WEBHOOK_SECRET; check that ' +
        'the environment variable is set.',
    );
  }
  return usable;
}
