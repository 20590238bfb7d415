/**
 * stellar-core's SignatureChecker for one hash and its decorated signatures: weighs the
 * signatures of an account's signers against a threshold and remembers which signatures some
 * check used, so that unused ones can be refused (txBAD_AUTH_EXTRA).
 */
import { createPublicKey, verify as cryptoVerify, type KeyObject } from 'node:crypto';
import { StrKey, type xdr } from '@stellar/stellar-sdk';

/** A key that may sign for an account (ed25519 G... only) and its weight. */
export interface WeightedKey {
  key: string;
  weight: number;
}

export class SignatureChecker {
  private readonly used: boolean[];
  /** "index:key" → verified, so each signature is verified at most once per key. */
  private readonly verified = new Map<string, boolean>();
  private readonly rawKeys = new Map<string, Buffer>();

  constructor(private readonly hash: Buffer, private readonly signatures: xdr.DecoratedSignature[]) {
    this.used = signatures.map(() => false);
  }

  /**
   * As stellar-core: signatures in envelope order, each matched to the first remaining signer it
   * verifies for; that signer's weight counts once, and the check passes as soon as the total
   * reaches `needed`. Only a matching signature passes, so even a threshold of 0 needs one.
   */
  check(signers: WeightedKey[], needed: number): boolean {
    const remaining = signers.filter((s) => s.weight > 0);
    let total = 0;
    for (let i = 0; i < this.signatures.length; i += 1) {
      const at = remaining.findIndex((s) => this.verifies(i, s.key));
      if (at < 0) continue;
      this.used[i] = true;
      total += Math.min(remaining[at]!.weight, 255);
      if (total >= needed) return true;
      remaining.splice(at, 1);
    }
    return false;
  }

  allUsed(): boolean {
    return this.used.every(Boolean);
  }

  private verifies(index: number, key: string): boolean {
    const id = `${index}:${key}`;
    let ok = this.verified.get(id);
    if (ok === undefined) {
      const raw = this.rawKey(key);
      const sig = this.signatures[index]!;
      // The hint (last 4 bytes of the key) rules out most pairs without any curve arithmetic.
      ok = Buffer.from(sig.hint.toBytes()).equals(raw.subarray(28)) && verifyEd25519(raw, this.hash, Buffer.from(sig.signature.toBytes()));
      this.verified.set(id, ok);
    }
    return ok;
  }

  /** Decoding a G… key (base32 and checksum) costs more than the hint test it serves: once per key. */
  private rawKey(key: string): Buffer {
    let raw = this.rawKeys.get(key);
    if (!raw) this.rawKeys.set(key, (raw = Buffer.from(StrKey.decodeEd25519PublicKey(key))));
    return raw;
  }
}

/**
 * The same check as `Keypair.verify`, through Node's native Ed25519 rather than the SDK's
 * pure-JS curve code, which was most of the time of creating an intent (its deposit account's
 * provisioning transaction carries two signatures to check).
 */
function verifyEd25519(rawPublicKey: Buffer, message: Buffer, signature: Buffer): boolean {
  if (signature.length !== 64) return false;
  const id = message.toString('base64') + signature.toString('base64') + rawPublicKey.toString('base64');
  let ok = verifications.get(id);
  if (ok === undefined) {
    ok = cryptoVerify(null, message, publicKeyObject(rawPublicKey), signature);
    if (verifications.size >= VERIFICATION_CACHE_SIZE) verifications.delete(verifications.keys().next().value!);
    verifications.set(id, ok);
  }
  return ok;
}

/**
 * stellar-core keeps a cache of signature verifications (key, signature, hash → valid): a
 * transaction checked when the queue admits it is checked again at its close without the curve
 * arithmetic. So does the sandbox: verification was ~17% of a clocked close (profiled, 200
 * deposit accounts a ledger). Signers and thresholds are still weighed again at the close; only
 * the arithmetic, whose answer cannot change, is remembered.
 */
const VERIFICATION_CACHE_SIZE = 16_384;
const verifications = new Map<string, boolean>();

/** Importing a key costs about as much as a verification; the same keys (treasury, channels) sign most transactions. */
const KEY_CACHE_SIZE = 4096;
const keyObjects = new Map<string, KeyObject>();

function publicKeyObject(raw: Buffer): KeyObject {
  const id = raw.toString('hex');
  let key = keyObjects.get(id);
  if (!key) {
    // a JWK import (~0.02 ms) rather than SPKI DER (~0.11 ms): each new deposit account's key is new here
    key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
    if (keyObjects.size >= KEY_CACHE_SIZE) keyObjects.delete(keyObjects.keys().next().value!);
    keyObjects.set(id, key);
  }
  return key;
}
