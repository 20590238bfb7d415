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
 * It lives with the intent that mints and shows it; the checkout page (resources/checkout/), above
 * the intent, only checks it.
 */
export class CheckoutLinks {
  /**
   * Opened secrets by sealed form: a paid or quoted intent is presented afresh on every read (a
   * list of them too), and opening a secret costs ~15 µs; bounded, the oldest forgotten first.
   */
  private readonly opened = new Map<string, string>();

  constructor(private readonly key: Buffer, private readonly remembered = 20_000) {}

  private open(sealed: string): string {
    let secret = this.opened.get(sealed);
    if (secret === undefined) {
      secret = decryptSecret(this.key, sealed);
      if (this.opened.size >= this.remembered) this.opened.delete(this.opened.keys().next().value!);
      this.opened.set(sealed, secret);
    }
    return secret;
  }

  /** The sealed secret of a new intent's link. */
  mint(): string {
    return encryptSecret(this.key, randomToken(24));
  }

  /** The payer-facing link; the bare path (opening nothing) only until the start gives an older intent its secret (FundingIntentsService.giveOldIntentsLinks). */
  url(baseUrl: string, intent: { id: string; checkout_secret: string | null }): string {
    const path = `${baseUrl}/checkout/${intent.id}`;
    return intent.checkout_secret ? `${path}?k=${this.open(intent.checkout_secret)}` : path;
  }

  /** Whether `given` is the intent's link secret (compared in constant time). */
  opens(sealed: string | null, given: unknown): boolean {
    if (!sealed || typeof given !== 'string' || given.length === 0 || given.length > 128) return false;
    const digest = (text: string) => createHash('sha256').update(text).digest();
    return timingSafeEqual(digest(this.open(sealed)), digest(given));
  }
}
