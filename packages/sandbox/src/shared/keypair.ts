/**
 * Stellar keypairs on Node's native Ed25519. The SDK's `Keypair` derives public keys and signs
 * with pure-JS curve code: ~0.65 ms to make a key, ~0.36 ms to load one from its secret and
 * ~0.6 ms per signature, which was most of the CPU of provisioning deposit accounts (a key made,
 * loaded and signing for each). Node's OpenSSL does each in ~0.03–0.05 ms. Ed25519 signatures are
 * deterministic, so the bytes are exactly the SDK's; a `NativeKeypair` is a `Keypair` and goes
 * wherever one does (`Transaction#sign`, `secret()`, `publicKey()`).
 */
import { createPrivateKey, createPublicKey, randomBytes, sign as cryptoSign, type KeyObject } from 'node:crypto';
import { Keypair, StrKey } from '@stellar/stellar-sdk';

/** PKCS#8 DER of an Ed25519 private key is this fixed 16-byte header, then the 32-byte seed. */
const PKCS8_ED25519_HEADER = Buffer.from('302e020100300506032b657004220420', 'hex');

export function importSeedAsDer(seed: Buffer): KeyObject {
  return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_HEADER, seed]), format: 'der', type: 'pkcs8' });
}

/**
 * A JWK with an empty `x` lets OpenSSL derive the public half from `d`: on Node 20 that import takes
 * ~0.03 ms where PKCS#8 DER takes ~0.36 ms. Node 24 refuses such a JWK ("Invalid JWK OKP key"), and
 * there (as on Node 22) DER takes ~0.03 ms. So the import is chosen once by what this runtime
 * accepts, not by its version number.
 */
export function importSeedAsJwk(seed: Buffer): KeyObject {
  return createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', d: seed.toString('base64url'), x: '' }, format: 'jwk' });
}

const importSeed: (seed: Buffer) => KeyObject = (() => {
  try {
    importSeedAsJwk(Buffer.alloc(32, 1));
    return importSeedAsJwk;
  } catch {
    return importSeedAsDer;
  }
})();

export class NativeKeypair extends Keypair {
  private readonly privateKey: KeyObject;

  private constructor(seed: Buffer, privateKey: KeyObject, publicKey = createPublicKey(privateKey)) {
    super({ type: 'ed25519', publicKey: Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url') });
    // The SDK keeps the seed in these two fields: secret(), rawSecretKey() and canSign() read them.
    Object.assign(this, { _secretSeed: seed, _secretKey: seed });
    this.privateKey = privateKey;
  }

  /**
   * An Ed25519 key is 32 random bytes (its seed): taken from the CSPRNG and imported, never made
   * by Node's key generation. On Node 20 a finished KeyGenJob (sync or async) that the GC
   * collects can deadlock the main thread on a libuv mutex (~KeyGenJob under
   * Heap::CollectGarbage): CI's hang guard caught it twice, once after the async generateKeyPair
   * became the sync one. An import creates no job.
   */
  static override random(): NativeKeypair {
    return NativeKeypair.fromRawEd25519Seed(randomBytes(32));
  }

  static override fromSecret(secret: string): NativeKeypair {
    return NativeKeypair.fromRawEd25519Seed(StrKey.decodeEd25519SecretSeed(secret));
  }

  static override fromRawEd25519Seed(seed: Uint8Array): NativeKeypair {
    const raw = Buffer.from(seed);
    if (raw.length !== 32) throw new Error('Invalid Ed25519 seed: expected 32 bytes');
    return new NativeKeypair(raw, importSeed(raw));
  }

  override sign(data: Buffer): Buffer {
    return cryptoSign(null, data, this.privateKey);
  }
}
