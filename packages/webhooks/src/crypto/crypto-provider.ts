/**
 * Computes HMAC-SHA256 digests. The default is Web Crypto ({@link SubtleCryptoProvider}), which
 * every supported runtime has; `@fundkit/webhooks/node` adds a synchronous Node implementation.
 */
export interface CryptoProvider {
  /** Lowercase hex HMAC-SHA256 of `message`, keyed with the UTF-8 bytes of `secret`. */
  computeHmacSha256Hex(secret: string, message: Uint8Array): Promise<string>;
}

/** A provider that can also answer synchronously (Node's `node:crypto`). */
export interface SyncCryptoProvider extends CryptoProvider {
  computeHmacSha256HexSync(secret: string, message: Uint8Array): string;
}
