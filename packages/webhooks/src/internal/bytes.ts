const encoder = new TextEncoder();

export function utf8Bytes(text: string): Uint8Array {
  return encoder.encode(text);
}

// One decoder for every call: without `stream`, decode() keeps no state between calls, and
// constructing a TextDecoder cost more than decoding a 1 KB event.
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Decodes strictly: a body that is not valid UTF-8 cannot be JSON. A leading BOM is dropped. */
export function decodeUtf8Strict(bytes: Uint8Array): string {
  return strictDecoder.decode(bytes);
}

type WellFormedString = string & { isWellFormed?(): boolean; toWellFormed?(): string };

/**
 * The text a string body's signed bytes decode to, without encoding it: UTF-8 turns lone
 * surrogates into U+FFFD and {@link decodeUtf8Strict} drops a leading BOM.
 */
export function signedText(text: string): string {
  const s = text as WellFormedString;
  const wellFormed = s.isWellFormed ? (s.isWellFormed() ? text : s.toWellFormed!()) : decodeUtf8Strict(utf8Bytes(text));
  return wellFormed.charCodeAt(0) === 0xfeff ? wellFormed.slice(1) : wellFormed;
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const total = parts.reduce((sum, part) => sum + part.byteLength, 0);
  const joined = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.byteLength;
  }
  return joined;
}

export function bytesToHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

export function randomHex(byteCount: number): string {
  return bytesToHex(globalThis.crypto.getRandomValues(new Uint8Array(byteCount)));
}
