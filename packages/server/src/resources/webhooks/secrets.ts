import { decryptSecret } from '../../lib/crypto.js';
import { randomToken } from '../../lib/ids.js';
import type { EndpointRecord } from './endpoints-repo.js';

/** After a rotation the previous secret keeps signing this long, so receivers can redeploy. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;

export function newWebhookSecret(): string {
  return `whsec_${randomToken(32)}`;
}

/**
 * Every secret valid at `now`, the incumbent first: the first one alone makes Service-Signature
 * (one value, as INTERFACE.md shapes it) and Service-Signature-V2 carries one v1 per secret.
 * During a rotation's overlap the PREVIOUS secret is the incumbent, so a receiver that has not yet
 * deployed the new secret keeps verifying ("old secret stays valid 24 h"); once the overlap ends
 * the new secret signs everything.
 */
export function signingSecrets(endpoint: EndpointRecord, key: Buffer, now: number): string[] {
  const current = decryptSecret(key, endpoint.secret_encrypted);
  const previous = endpoint.previous_secret_encrypted;
  const until = endpoint.previous_secret_expires_at;
  if (previous && until && Date.parse(until) > now) return [decryptSecret(key, previous), current];
  return [current];
}
