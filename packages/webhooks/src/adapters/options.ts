import type { WebhookSecrets } from '../internal/secrets.js';
import { secretList } from '../internal/secrets.js';
import type { VerifyWebhookAsyncOptions } from '../verify.js';

/** Options of the framework adapters: one secret, or several during a rotation. */
export interface WebhookAdapterOptions extends VerifyWebhookAsyncOptions {
  /** The endpoint secret (`whsec_…`), or a list of them. */
  secret?: WebhookSecrets;
  /** Every currently valid secret (alias of passing a list as `secret`). */
  secrets?: readonly string[];
}

/** The secrets of adapter options, checked when the adapter is created so a missing one fails at startup. */
export function adapterSecrets(options: WebhookAdapterOptions): string[] {
  const given = [options.secret ?? [], options.secrets ?? []].flat();
  return secretList(given);
}
