import { decryptSecret } from '../../lib/crypto.js';
import { randomToken } from '../../lib/ids.js';
import type { EndpointRecord } from './endpoints-repo.js';

/** After a rotation the previous secret keeps signing this long, so receivers can redeploy. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;

export function newWebhookSecret(): string {
  return `whsec_${randomToken(32)}`;
}

/** Every secret valid at `now`, newest first (the newest alone makes Service-Signature). */
export function signingSecrets(endpoint: EndpointRecord, key: Buffer, now: number): string[] {
  const secrets = [decryptSecret(key, endpoint.secret_encrypted)];
  const previous = endpoint.previous_secret_encrypted;
  const until = endpoint.previous_secret_expires_at;
  if (previous && until && Date.parse(until) > now) secrets.push(decryptSecret(key, previous));
  return secrets;
}
