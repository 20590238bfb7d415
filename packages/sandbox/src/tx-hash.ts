/**
 * A transaction's hash, computed once per transaction object. `Transaction.hash()` serializes the
 * whole transaction to XDR and hashes it on every call, and the sandbox asks for the hash of the
 * same transaction at admission, in the signature checks and in the close's records (~8% of a
 * clocked close of 200 deposit accounts). The hash covers what a transaction object cannot change
 * after it is built (signatures are not part of it), so the first answer stays right.
 */
import type { FeeBumpTransaction, Transaction } from '@stellar/stellar-sdk';

const hashes = new WeakMap<Transaction | FeeBumpTransaction, Buffer>();

export function txHash(tx: Transaction | FeeBumpTransaction): Buffer {
  let hash = hashes.get(tx);
  // Buffer.from: SDK 17 returns a Uint8Array, whose toString('hex') silently gives comma-joined decimals.
  if (!hash) hashes.set(tx, (hash = Buffer.from(tx.hash())));
  return hash;
}
