/**
 * Stellar keypairs on Node's native Ed25519. The SDK's `Keypair` derives public keys and signs
 * with pure-JS curve code: ~0.65 ms to make a key, ~0.36 ms to load one from its secret and
 * ~0.6 ms per signature, which was most of the CPU of provisioning deposit accounts (a key made,
 * loaded and signing for each). Node's OpenSSL does each in ~0.03–0.05 ms. Ed25519 signatures are
 * deterministic, so the bytes are exactly the SDK's; a `NativeKeypair` is a `Keypair` and goes
 * wherever one does (`Transaction#sign`, `secret()`, `publicKey()`).
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign as cryptoSign, type KeyObject } from 'node:crypto';
import { Keypair, StrKey } from '@stellar/stellar-sdk';

export class NativeKeypair extends Keypair {
  private readonly privateKey: KeyObject;

  private constructor(seed: Buffer, privateKey: KeyObject, publicKey = createPublicKey(privateKey)) {
    super({ type: 'ed25519', publicKey: Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url') });
    // The SDK keeps the seed in these two fields: secret(), rawSecretKey() and canSign() read them.
    Object.assign(this, { _secretSeed: seed, _secretKey: seed });
    this.privateKey = privateKey;
  }

  static override random(): NativeKeypair {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    return NativeKeypair.fromKeyObjects(privateKey, publicKey);
  }

  static fromKeyObjects(privateKey: KeyObject, publicKey: KeyObject): NativeKeypair {
    return new NativeKeypair(Buffer.from(privateKey.export({ format: 'jwk' }).d!, 'base64url'), privateKey, publicKey);
  }

  static override fromSecret(secret: string): NativeKeypair {
    return NativeKeypair.fromRawEd25519Seed(StrKey.decodeEd25519SecretSeed(secret));
  }

  static override fromRawEd25519Seed(seed: Uint8Array): NativeKeypair {
    const raw = Buffer.from(seed);
    if (raw.length !== 32) throw new Error('Invalid Ed25519 seed: expected 32 bytes');
    // A JWK import (~0.08 ms), not PKCS#8 DER (~0.75 ms here); OpenSSL derives `x` from `d`.
    return new NativeKeypair(raw, createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', d: raw.toString('base64url'), x: '' }, format: 'jwk' }));
  }

  override sign(data: Buffer): Buffer {
    return cryptoSign(null, data, this.privateKey);
  }
}

/**
 * Keys made ahead, between requests: a create that found the deposit pool empty takes one instead
 * of computing it inside the request. A key never handed out is never used anywhere, so one lost
 * with the process costs nothing.
 *
 * Made synchronously in small slices (setImmediate), not with the async `generateKeyPair`: on
 * Node 20 a finished async KeyGenJob collected by the GC can deadlock the main thread on a libuv
 * mutex (~KeyGenJob under Heap::CollectGarbage, seen in CI's hang guard as a test file frozen in
 * futex). An Ed25519 key takes ~50 µs here, so a slice of 16 holds the event loop under 1 ms.
 */
export class KeyReserve {
  private readonly keys: NativeKeypair[] = [];
  private filling = false;

  constructor(private readonly size = 256) {}

  take(): NativeKeypair {
    const key = this.keys.pop() ?? NativeKeypair.random();
    this.refill();
    return key;
  }

  private refill(): void {
    if (this.filling || this.keys.length > this.size / 2) return;
    this.filling = true;
    const slice = () => {
      for (let n = 0; n < SLICE && this.keys.length < this.size; n++) this.keys.push(NativeKeypair.random());
      if (this.keys.length < this.size) setImmediate(slice);
      else this.filling = false;
    };
    setImmediate(slice);
  }
}

/** keys made per turn of the event loop */
const SLICE = 16;
