/** A PKCE pair (RFC 7636): keep `codeVerifier` server-side, send `codeChallenge` with the handoff. */
export interface PkcePair {
  codeVerifier: string;
  codeChallenge: string;
  method: 'S256';
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** BASE64URL(SHA-256(verifier)), the S256 challenge of a verifier. */
export async function pkceChallenge(codeVerifier: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(codeVerifier));
  return base64url(new Uint8Array(digest));
}

/** Creates a verifier (43 chars from 32 random bytes, the RFC's recommendation) and its S256 challenge, with Web Crypto. */
export async function createPkcePair(): Promise<PkcePair> {
  const codeVerifier = base64url(globalThis.crypto.getRandomValues(new Uint8Array(32)));
  return { codeVerifier, codeChallenge: await pkceChallenge(codeVerifier), method: 'S256' };
}
