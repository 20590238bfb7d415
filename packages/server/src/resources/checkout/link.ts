import { createHash, timingSafeEqual } from 'node:crypto';
import { decryptSecret, encryptSecret } from '../../lib/crypto.js';
import { randomToken } from '../../lib/ids.js';

/**
 * The secret of an intent's hosted checkout link (`hosted_funding_url`, `/checkout/<id>?k=<secret>`).
 *
 * The link is the payer's capability: whoever holds it sees the amount, the merchant and the
 * deposit address, and may accept another quote. So it carries 192 random bits of its own, drawn
 * when the intent is made and not derived from the intent's id (ids travel in webhooks, logs and
 * support tickets); the id alone opens nothing. The intent row keeps the secret sealed with a key
 * derived from the master key (never in clear), because every read of the intent shows the link.
 */
export class CheckoutLinks {
  constructor(private readonly key: Buffer) {}

  /** The sealed secret of a new intent's link. */
  mint(): string {
    return encryptSecret(this.key, randomToken(24));
  }

  /** The payer-facing link; an intent made before links had secrets gets the bare path, which opens nothing. */
  url(baseUrl: string, intent: { id: string; checkout_secret: string | null }): string {
    const path = `${baseUrl}/checkout/${intent.id}`;
    return intent.checkout_secret ? `${path}?k=${decryptSecret(this.key, intent.checkout_secret)}` : path;
  }

  /** Whether `given` is the intent's link secret (compared in constant time). */
  opens(sealed: string | null, given: unknown): boolean {
    if (!sealed || typeof given !== 'string' || given.length === 0 || given.length > 128) return false;
    const digest = (text: string) => createHash('sha256').update(text).digest();
    return timingSafeEqual(digest(decryptSecret(this.key, sealed)), digest(given));
  }
}
