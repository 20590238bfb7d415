/**
 * resultMetaXdr. The sandbox keeps no ledger-entry meta (it records balances, not the changes of
 * each entry), so every transaction's meta is a valid, minimal TransactionMeta with empty change
 * lists, in the version stellar-core emits for the protocol the sandbox reports: v3 up to 22, v4
 * from 23 (the sandbox reports 27). One empty OperationMeta per operation of a successful transaction
 * (none for a failed one, as core does). A successful call of a built-in Stellar Asset Contract
 * (sac/) has its contract events (CAP-67's unified `transfer`) in its OperationMetaV2 and its
 * return value in SorobanTransactionMetaV2, as stellar-core writes v4.
 */
import { FeeBumpTransaction, TransactionBuilder, xdr } from '@stellar/stellar-sdk';
import type { HorizonTransaction } from '../../horizon-types.js';
import { PROTOCOL_VERSION } from '../ledgers.js';
import { loadInvocation, type Invocation } from '../sac/meta-store.js';
import type { SandboxStore } from '../store.js';

/** TransactionMeta's version for a protocol: v3 up to 22, v4 from 23. */
export const META_VERSION = PROTOCOL_VERSION >= 23 ? 4 : 3;

export function operationCount(envelopeXdr: string, passphrase: string): number {
  const tx = TransactionBuilder.fromXdr(envelopeXdr, passphrase);
  return (tx instanceof FeeBumpTransaction ? tx.innerTransaction : tx).operations.length;
}

export function transactionMeta(operations: number, version: 3 | 4 = META_VERSION, invocation: Invocation | null = null): xdr.TransactionMeta {
  if (version === 4) {
    return xdr.TransactionMeta.v4(new xdr.TransactionMetaV4({
      ext: xdr.ExtensionPoint.v0(),
      txChangesBefore: [],
      operations: Array.from({ length: operations }, () => new xdr.OperationMetaV2({
        ext: xdr.ExtensionPoint.v0(), changes: [], events: invocation?.events ?? [],
      })),
      txChangesAfter: [],
      sorobanMeta: invocation
        ? new xdr.SorobanTransactionMetaV2({ ext: xdr.SorobanTransactionMetaExt.v0(), returnValue: invocation.returnValue })
        : null,
      events: [],
      diagnosticEvents: [],
    }));
  }
  return xdr.TransactionMeta.v3(new xdr.TransactionMetaV3({
    ext: xdr.ExtensionPoint.v0(),
    txChangesBefore: [],
    operations: Array.from({ length: operations }, () => new xdr.OperationMeta({ changes: [] })),
    txChangesAfter: [],
    sorobanMeta: null,
  }));
}

export async function resultMetaXdr(store: SandboxStore, t: HorizonTransaction, passphrase: string): Promise<string> {
  const ops = t.successful ? operationCount(t.envelope_xdr, passphrase) : 0;
  const invocation = t.successful ? await loadInvocation(store, t.hash) : null;
  return Buffer.from(transactionMeta(ops, META_VERSION, invocation).toXdr()).toString('base64');
}
