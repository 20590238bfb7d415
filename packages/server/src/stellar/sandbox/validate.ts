/**
 * Checks that decide whether a transaction gets into a ledger at all, in stellar-core's order:
 * operations, time bounds, fee, source account, sequence number, signatures, fee balance.
 * A transaction failing here changes nothing (no fee, no sequence number).
 */
import { createPublicKey, verify as cryptoVerify } from 'node:crypto';
import { FeeBumpTransaction, Keypair, type Transaction, type xdr } from '@stellar/stellar-sdk';
import { availableNative } from './accounts.js';
import { baseAccount } from './operations/context.js';
import type { SandboxStore } from './store.js';

/** Minimum fee per operation (fixtures README, "Network base fee"). */
export const BASE_FEE = 100n;

export interface Checked {
  inner: Transaction;
  source: string;
  feeAccount: string;
  /** What the ledger charges: the base fee per operation (no surge pricing in the sandbox). */
  feeCharged: bigint;
}

export interface Rejected {
  /** TransactionResultCode arm, e.g. "txBadSeq". */
  name: string;
  feeCharged: bigint;
}

export function checkTransaction(
  store: SandboxStore, env: Transaction | FeeBumpTransaction, now: number,
): Checked | Rejected {
  const bump = env instanceof FeeBumpTransaction;
  const inner = bump ? env.innerTransaction : env;
  const ops = inner.operations.length;
  if (ops === 0) return { name: 'txMissingOperation', feeCharged: 0n };
  const tb = inner.timeBounds;
  if (tb && now < Number(tb.minTime)) return { name: 'txTooEarly', feeCharged: 0n };
  if (tb && tb.maxTime !== '0' && now > Number(tb.maxTime)) return { name: 'txTooLate', feeCharged: 0n };
  const feeCharged = BASE_FEE * BigInt(ops + (bump ? 1 : 0));
  if (BigInt(env.fee) < feeCharged) return { name: 'txInsufficientFee', feeCharged };
  const source = baseAccount(inner.source);
  const account = store.getAccount(source);
  const feeAccount = bump ? baseAccount(env.feeSource) : source;
  const payer = store.getAccount(feeAccount);
  if (!account || !payer) return { name: 'txNoAccount', feeCharged: 0n };
  if (BigInt(inner.sequence) !== account.seq + 1n) return { name: 'txBadSeq', feeCharged: 0n };
  const auth = checkSignatures(env, inner, source, feeAccount);
  if (auth) return { name: auth, feeCharged: 0n };
  if (availableNative(store, payer) < feeCharged) return { name: 'txInsufficientBalance', feeCharged: 0n };
  return { inner, source, feeAccount, feeCharged };
}

/**
 * Every account that must authorise (tx source, each operation's source, the fee-bump payer)
 * needs a valid master-key signature; signatures nobody needed are an error too.
 */
function checkSignatures(
  env: Transaction | FeeBumpTransaction, inner: Transaction, source: string, feeAccount: string,
): string | null {
  const signers = new Set([source, ...inner.operations.map((op) => baseAccount(op.source ?? source))]);
  const innerUsed = matchSigners(inner.hash(), inner.signatures, signers);
  if (!innerUsed) return 'txBadAuth';
  if (env instanceof FeeBumpTransaction) {
    const outerUsed = matchSigners(env.hash(), env.signatures, new Set([feeAccount]));
    if (!outerUsed) return 'txBadAuth';
    if (outerUsed.size < env.signatures.length) return 'txBadAuthExtra';
  }
  return innerUsed.size < inner.signatures.length ? 'txBadAuthExtra' : null;
}

/** Indexes of the signatures used, or null when some signer has no valid signature. */
function matchSigners(hash: Buffer, signatures: xdr.DecoratedSignature[], signers: Set<string>): Set<number> | null {
  const used = new Set<number>();
  for (const signer of signers) {
    const key = Keypair.fromPublicKey(signer);
    const hint = key.signatureHint();
    const index = signatures.findIndex((s) => s.hint().equals(hint) && verifyEd25519(key.rawPublicKey(), hash, s.signature()));
    if (index < 0) return null;
    used.add(index);
  }
  return used;
}

/** DER prefix of an Ed25519 SubjectPublicKeyInfo; the raw 32-byte key follows it. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/**
 * The same check as `Keypair.verify`, through Node's native Ed25519 rather than the SDK's
 * pure-JS curve code, which was most of the time of creating an intent (its deposit account's
 * provisioning transaction carries two signatures to check).
 */
function verifyEd25519(rawPublicKey: Buffer, message: Buffer, signature: Buffer): boolean {
  if (signature.length !== 64) return false;
  const key = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, rawPublicKey]), format: 'der', type: 'spki' });
  return cryptoVerify(null, message, key, signature);
}
