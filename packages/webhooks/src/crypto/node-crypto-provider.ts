import * as nodeCrypto from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import type { SyncCryptoProvider } from './crypto-provider.js';

/** SHA-256's block size, RFC 2104's B. */
const BLOCK = 64;

/**
 * One secret, ready to key HMACs. Constructing a node:crypto Hmac cost more than hashing a 1 KB
 * body (~1.6 µs of ~2.9 µs), and a verification needs two, so when the one-shot `hash` exists
 * (Node ≥ 20.12) and the secret is ASCII of at most one block (every `whsec_` secret), HMAC is
 * computed as RFC 2104 defines it: H((K ⊕ opad) ‖ H((K ⊕ ipad) ‖ message)). K ⊕ ipad is then
 * ASCII too, so it can prefix a string body and node:crypto encodes both as UTF-8 in one pass.
 */
interface PreparedKey {
  /** K ⊕ ipad as a string (ASCII, so its UTF-8 bytes are the pad bytes), and as bytes. */
  innerPad?: string;
  innerPadBytes?: Buffer;
  /** K ⊕ opad followed by room for the inner digest. */
  outer?: Buffer;
  /** Otherwise: a KeyObject for createHmac. */
  key?: KeyObject;
}

/** Prepared keys by secret: a receiver uses the same one or two secrets for every delivery. */
const prepared = new Map<string, PreparedKey>();

function prepare(secret: string): PreparedKey {
  const bytes = Buffer.from(secret, 'utf8');
  if (typeof nodeCrypto.hash !== 'function' || bytes.length > BLOCK || bytes.some((byte) => byte >= 0x80)) {
    return { key: nodeCrypto.createSecretKey(bytes) };
  }
  const padded = Buffer.alloc(BLOCK);
  bytes.copy(padded);
  const innerPadBytes = Buffer.from(padded.map((byte) => byte ^ 0x36));
  const outer = Buffer.alloc(BLOCK + 32);
  for (let i = 0; i < BLOCK; i++) outer[i] = padded[i]! ^ 0x5c;
  return { innerPad: innerPadBytes.toString('latin1'), innerPadBytes, outer };
}

function preparedKey(secret: string): PreparedKey {
  let key = prepared.get(secret);
  if (!key) {
    if (prepared.size >= 8) prepared.delete(prepared.keys().next().value!);
    key = prepare(secret);
    prepared.set(secret, key);
  }
  return key;
}

/**
 * Lowercase hex HMAC-SHA256 of `prefix` + `message`, keyed with the UTF-8 bytes of `secret`.
 * A string message is hashed as UTF-8 by node:crypto (lone surrogates become U+FFFD, as with
 * TextEncoder), so neither the body nor `${t}.${body}` is copied to bytes first.
 */
export function hmacSha256Hex(secret: string, message: string | Uint8Array, prefix = ''): string {
  const { innerPad, innerPadBytes, outer, key } = preparedKey(secret);
  if (innerPad === undefined || !innerPadBytes || !outer) {
    return nodeCrypto.createHmac('sha256', key!).update(prefix).update(message).digest('hex');
  }
  // The inner digest travels as a 'binary' (latin1) string: a Buffer result cost more than the hash itself.
  const inner = typeof message === 'string'
    ? nodeCrypto.hash('sha256', innerPad + prefix + message, 'binary')
    : nodeCrypto.hash('sha256', Buffer.concat([innerPadBytes, Buffer.from(prefix, 'latin1'), message]), 'binary');
  // `outer` is reused: everything here is synchronous, so no other call can interleave.
  outer.write(inner, BLOCK, 'latin1');
  return nodeCrypto.hash('sha256', outer, 'hex');
}

/** HMAC-SHA256 through `node:crypto`, synchronously. Only reachable from the Node entries. */
export class NodeCryptoProvider implements SyncCryptoProvider {
  computeHmacSha256HexSync(secret: string, message: Uint8Array): string {
    return hmacSha256Hex(secret, message);
  }

  async computeHmacSha256Hex(secret: string, message: Uint8Array): Promise<string> {
    return this.computeHmacSha256HexSync(secret, message);
  }
}
