/**
 * Compares two strings in time that depends only on their lengths, so a timing attacker
 * learns nothing about how many leading characters of a forged signature were right.
 * Lengths are public here (a SHA-256 hex digest is always 64 characters).
 */
export function secureCompare(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
