/**
 * resultMetaXdr. The sandbox keeps no ledger-entry meta (it records balances, not the changes of
 * each entry), so every transaction's meta is a valid, minimal TransactionMeta with empty change
 * lists: v3, the version stellar-core emits for the protocol the sandbox reports (22; v4 is 23+),
 * with one empty OperationMeta per operation of a successful transaction (none for a failed one,
 * as core does) and no Soroban meta.
 */
import { FeeBumpTransaction, TransactionBuilder, xdr } from '@stellar/stellar-sdk';
import type { HorizonTransaction } from '../../horizon-types.js';
import { PROTOCOL_VERSION } from '../ledgers.js';

/** TransactionMeta's version for a protocol: v3 up to 22, v4 from 23. */
export const META_VERSION = PROTOCOL_VERSION >= 23 ? 4 : 3;

export function operationCount(envelopeXdr: string, passphrase: string): number {
  const tx = TransactionBuilder.fromXDR(envelopeXdr, passphrase);
  return (tx instanceof FeeBumpTransaction ? tx.innerTransaction : tx).operations.length;
}

export function transactionMeta(operations: number): xdr.TransactionMeta {
  if (META_VERSION !== 3) throw new Error(`TransactionMeta v${META_VERSION} is not written by the sandbox yet`);
  return new xdr.TransactionMeta(3, new xdr.TransactionMetaV3({
    ext: new xdr.ExtensionPoint(0),
    txChangesBefore: [],
    operations: Array.from({ length: operations }, () => new xdr.OperationMeta({ changes: [] })),
    txChangesAfter: [],
    sorobanMeta: null,
  }));
}

export function resultMetaXdr(t: HorizonTransaction, passphrase: string): string {
  const ops = t.successful ? operationCount(t.envelope_xdr, passphrase) : 0;
  return Buffer.from(transactionMeta(ops).toXDR()).toString('base64');
}
