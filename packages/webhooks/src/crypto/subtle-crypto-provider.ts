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
    const key = await this.subtle.importKey('raw', asBufferSource(utf8Bytes(secret)), HMAC_SHA256, false, ['sign']);
    const signature = await this.subtle.sign('HMAC', key, asBufferSource(message));
    return bytesToHex(new Uint8Array(signature));
  }
}

let defaultProvider: SubtleCryptoProvider | undefined;

/** Created on first use so that merely importing the package never touches `crypto`. */
export function defaultCryptoProvider(): CryptoProvider {
  defaultProvider ??= new SubtleCryptoProvider();
  return defaultProvider;
}
