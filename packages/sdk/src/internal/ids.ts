/**
 * A fresh idempotency key. UUID v4 (36 chars) fits both bounds of the spec: 1–255 in general and
 * 8–200 in the checkout family. Web Crypto keeps the core free of `node:` imports.
 */
export function randomIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}
