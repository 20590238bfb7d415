import { Keypair, Networks, TransactionBuilder, Account, Operation, Asset } from '@stellar/stellar-sdk';
import { describe, expect, it } from 'vitest';
import { createPublicKey } from 'node:crypto';
import { NativeKeypair, importSeedAsDer, importSeedAsJwk } from '../../src/stellar/keypair.js';

describe('NativeKeypair (Node Ed25519 behind the SDK Keypair)', () => {
  it('has the SDK keypair’s public key, secret and signature bytes', () => {
    const native = NativeKeypair.random();
    const sdk = Keypair.fromSecret(native.secret());
    expect(native.publicKey()).toBe(sdk.publicKey());
    expect(native.canSign()).toBe(true);
    const data = Buffer.from('fundkit');
    expect(native.sign(data).equals(sdk.sign(data))).toBe(true);
    expect(sdk.verify(data, native.sign(data))).toBe(true);
    const loaded = NativeKeypair.fromSecret(sdk.secret());
    expect(loaded.publicKey()).toBe(sdk.publicKey());
    expect(Buffer.from(loaded.rawSecretKey()).equals(sdk.rawSecretKey())).toBe(true);
  });

  it('signs a transaction exactly as the SDK does', () => {
    const native = NativeKeypair.random();
    const build = () => new TransactionBuilder(new Account(native.publicKey(), '1'), { fee: '100', networkPassphrase: Networks.TESTNET })
      .addOperation(Operation.payment({ destination: Keypair.random().publicKey(), asset: Asset.native(), amount: '1' })).setTimeout(0).build();
    const a = build();
    const b = TransactionBuilder.fromXDR(a.toXDR(), Networks.TESTNET);
    a.sign(native);
    b.sign(Keypair.fromSecret(native.secret()));
    expect(a.toXDR()).toBe(b.toXDR());
  });

  // Node 24 refuses the JWK import (an empty `x`); the DER import is the one it takes. Both must
  // give the same key wherever both are accepted, and the DER one is accepted everywhere.
  it('imports a seed as PKCS#8 DER to the same key as the SDK (the import Node 24 takes)', () => {
    const sdk = Keypair.random();
    const seed = Buffer.from(sdk.rawSecretKey());
    const x = (key: ReturnType<typeof importSeedAsDer>) => createPublicKey(key).export({ format: 'jwk' }).x;
    expect(Buffer.from(x(importSeedAsDer(seed))!, 'base64url').equals(sdk.rawPublicKey())).toBe(true);
    let jwk: ReturnType<typeof importSeedAsJwk> | undefined;
    try { jwk = importSeedAsJwk(seed); } catch { /* this runtime refuses it (Node 24): DER is used */ }
    if (jwk) expect(x(jwk)).toBe(x(importSeedAsDer(seed)));
  });

  it('refuses a seed of the wrong length', () => {
    expect(() => NativeKeypair.fromRawEd25519Seed(Buffer.alloc(31))).toThrow(/32 bytes/);
  });
});
