import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;
/** OWASP's current scrypt parameters (Password Storage Cheat Sheet): N=2^17, r=8, p=1. */
export const SCRYPT = { N: 2 ** 17, r: 8, p: 1 };
/** scrypt needs 128·N·r bytes; Node refuses above 32 MiB unless told (N=2^17, r=8 needs 128 MiB). */
const maxmemFor = (N: number, r: number) => 2 * 128 * N * r;
/** Stored hashes of a cheaper N than this are refused outright (not a hash we wrote). */
const MIN_N = 2 ** 10;
/** …and of a dearer one, so a stored row cannot make a sign-in allocate gigabytes. */
const MAX_N = 2 ** 20;

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A sub-key for one purpose, so the master key itself never signs or encrypts two kinds of thing. */
export function deriveKey(masterKey: Buffer, purpose: string): Buffer {
  return createHmac('sha256', masterKey).update(`fundkit/${purpose}`).digest();
}

/** AES-256-GCM; output is base64(iv[12] | tag[16] | ciphertext). */
export function encryptSecret(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64');
}

export function decryptSecret(key: Buffer, sealed: string): string {
  const raw = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

/** scrypt password hash, stored as scrypt$N$r$p$salt$hash (base64): its parameters travel with it. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, 32, { ...SCRYPT, maxmem: maxmemFor(SCRYPT.N, SCRYPT.r) });
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

export interface PasswordCheck {
  valid: boolean;
  /** the hash was made with other parameters than today's: rehash it now that the password is known */
  outdated: boolean;
}

/** Checks a password against a stored hash, with the parameters stored in it. */
export async function checkPassword(password: string, stored: string): Promise<PasswordCheck> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  const N = Number(n), R = Number(r), P = Number(p);
  if (scheme !== 'scrypt' || !salt || !hash || !Number.isInteger(N) || N < MIN_N || N > MAX_N || !(R >= 1 && R <= 32) || !(P >= 1 && P <= 16)) {
    return { valid: false, outdated: false };
  }
  const expected = Buffer.from(hash, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length, { N, r: R, p: P, maxmem: maxmemFor(N, R) });
  return { valid: timingSafeEqual(expected, actual), outdated: N !== SCRYPT.N || R !== SCRYPT.r || P !== SCRYPT.p };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  return (await checkPassword(password, stored)).valid;
}

/** Compares two secrets in constant time: equal-length SHA-256 digests, so not even the length leaks. */
export function secretsEqual(given: string, expected: string): boolean {
  return timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());
}
