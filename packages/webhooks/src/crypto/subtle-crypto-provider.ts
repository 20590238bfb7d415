import { bytesToHex, utf8Bytes } from '../internal/bytes.js';
import type { CryptoProvider } from './crypto-provider.js';

const HMAC_SHA256 = { name: 'HMAC', hash: 'SHA-256' } as const;

/**
 * TypeScript ≥ 5.7 types Web Crypto inputs as views over a plain ArrayBuffer only; our bytes come
 * from TextEncoder, Buffer or the caller, none of which sits on a SharedArrayBuffer here.
 */
function asBufferSource(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return bytes as Uint8Array<ArrayBuffer>;
}

/** HMAC-SHA256 through `globalThis.crypto.subtle`: Node ≥ 20, Bun, Deno, browsers, edge runtimes. */
export class SubtleCryptoProvider implements CryptoProvider {
  private readonly subtle: SubtleCrypto;
  /**
   * Imported keys by secret. A receiver verifies every delivery with the same one or two secrets,
   * and importing the key was most of the cost of a verification; a few entries are plenty.
   */
  private readonly keys = new Map<string, Promise<CryptoKey>>();

  constructor(subtle: SubtleCrypto | undefined = globalThis.crypto?.subtle) {
    if (!subtle) {
      throw new Error(
        'Web Crypto (globalThis.crypto.subtle) is not available in this runtime. On Node, use ' +
          "Node >= 20 or import verifyWebhookSync from '@fundkit/webhooks/node'.",
      );
    }
    this.subtle = subtle;
  }

  async computeHmacSha256Hex(secret: string, message: Uint8Array): Promise<string> {
    const key = await this.hmacKey(secret);
    const signature = await this.subtle.sign('HMAC', key, asBufferSource(message));
    return bytesToHex(new Uint8Array(signature));
  }

  private hmacKey(secret: string): Promise<CryptoKey> {
    let key = this.keys.get(secret);
    if (!key) {
      if (this.keys.size >= 8) this.keys.delete(this.keys.keys().next().value!);
      key = this.subtle.importKey('raw', asBufferSource(utf8Bytes(secret)), HMAC_SHA256, false, ['sign']);
      // a failed import must not stay cached
      key.catch(() => this.keys.delete(secret));
      this.keys.set(secret, key);
    }
    return key;
  }
}

let defaultProvider: SubtleCryptoProvider | undefined;

/** Created on first use so that merely importing the package never touches `crypto`. */
export function defaultCryptoProvider(): CryptoProvider {
  defaultProvider ??= new SubtleCryptoProvider();
  return defaultProvider;
}
