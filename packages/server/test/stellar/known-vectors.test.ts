/**
 * Every place the server turns SDK bytes into text (transaction hashes as hex, signatures and memos
 * as base64, raw keys), checked against values recorded from pubnet and RFC 8032 — not against the
 * SDK itself. The SDK 17 migration (Uint8Array instead of Buffer: `.toString('hex')` on a Uint8Array
 * silently gives comma-joined decimals) must keep every assertion here passing.
 */
import { readFileSync } from 'node:fs';
import { Account, Asset, FeeBumpTransaction, Keypair, Memo, Networks, Operation, StrKey, TransactionBuilder } from '@stellar/stellar-sdk';
import { describe, expect, it } from 'vitest';
import { envelopeHash } from '../../src/pipeline/tx.js';
import { NativeKeypair } from '../../src/stellar/keypair.js';
import { transactionResource } from '@fundkit/sandbox';

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../fixtures/horizon-recorded/${name}`, import.meta.url), 'utf8'));

function resourceOf(envelopeXdr: string) {
  return transactionResource({
    envelope: TransactionBuilder.fromXDR(envelopeXdr, Networks.PUBLIC), envelopeXdr, resultXdr: 'AAAAAAAAAGQAAAAAAAAAAAAAAAA=',
    ledger: 1, pagingToken: 1n, successful: true, createdAt: '2026-01-01T00:00:00Z', feeCharged: 100n,
  });
}

describe('known vectors: SDK bytes rendered as text', () => {
  it('a recorded pubnet envelope hashes to the hash Horizon recorded (pipeline envelopeHash)', () => {
    const tx = fixture('transaction.json');
    expect(envelopeHash(tx.envelope_xdr, Networks.PUBLIC)).toBe(tx.hash);
    expect(envelopeHash(tx.envelope_xdr, Networks.PUBLIC)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('the sandbox transaction resource renders hash, signatures and text memo as pubnet’s Horizon did', () => {
    const tx = fixture('transaction.json');
    const r = resourceOf(tx.envelope_xdr);
    expect(r.hash).toBe(tx.hash);
    expect(r.id).toBe(tx.hash);
    expect(r.signatures).toEqual(tx.signatures);
    expect(r.memo_type).toBe('text');
    expect(r.memo).toBe(tx.memo);
    expect(r.memo_bytes).toBe(tx.memo_bytes);
  });

  it('a recorded fee bump: outer and inner hashes and signatures', () => {
    const tx = fixture('transaction-fee-bump.json');
    const env = TransactionBuilder.fromXDR(tx.envelope_xdr, Networks.PUBLIC);
    expect(env).toBeInstanceOf(FeeBumpTransaction);
    const r = resourceOf(tx.envelope_xdr);
    expect(r.hash).toBe(tx.hash);
    expect(r.fee_bump_transaction).toEqual(tx.fee_bump_transaction);
    expect(r.inner_transaction?.hash).toBe(tx.inner_transaction.hash);
    expect(r.inner_transaction?.signatures).toEqual(tx.inner_transaction.signatures);
  });

  it('a hash memo is rendered as base64 of its 32 bytes', () => {
    const bytes = Buffer.from('00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff', 'hex');
    const tx = new TransactionBuilder(new Account(Keypair.random().publicKey(), '1'), { fee: '100', networkPassphrase: Networks.PUBLIC })
      .addOperation(Operation.payment({ destination: Keypair.random().publicKey(), asset: Asset.native(), amount: '1' }))
      .addMemo(Memo.hash(bytes)).setTimeout(0).build();
    const r = resourceOf(tx.toXDR());
    expect(r.memo_type).toBe('hash');
    expect(r.memo).toBe('ABEiM0RVZneImaq7zN3u/wARIjNEVWZ3iJmqu8zd7v8=');
  });

  it('NativeKeypair on RFC 8032 §7.1 TEST 1: public key and signature bytes', () => {
    const seed = Buffer.from('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex');
    const kp = NativeKeypair.fromRawEd25519Seed(seed);
    expect(Buffer.from(kp.rawPublicKey()).toString('hex')).toBe('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a');
    expect(Buffer.from(StrKey.decodeEd25519PublicKey(kp.publicKey())).toString('hex')).toBe('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a');
    expect(Buffer.from(kp.rawSecretKey()).toString('hex')).toBe(seed.toString('hex'));
    expect(Buffer.from(kp.sign(Buffer.alloc(0))).toString('hex')).toBe(
      'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b');
    expect(Keypair.fromSecret(kp.secret()).publicKey()).toBe(kp.publicKey());
  });
});
