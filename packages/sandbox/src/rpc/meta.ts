/**
 * resultMetaXdr. The sandbox keeps no ledger-entry meta (it records balances, not the changes of
 * each entry), so every transaction's meta is a valid, minimal TransactionMeta with empty change
 * lists, in the version stellar-core emits for the protocol the sandbox reports: v3 up to 22, v4
 * from 23 (the sandbox reports 27). One empty OperationMeta per operation of a successful transaction
 * (none for a failed one, as core does). v4 carries CAP-67's unified events as stellar-core
 * writes them: a built-in SAC call's (sac/) in its OperationMetaV2 with its return value in
 * SorobanTransactionMetaV2, classic movements' (sac/classic-events.ts) in theirs, and the fee event.
 */
import { FeeBumpTransaction, TransactionBuilder, xdr } from '@stellar/stellar-sdk';
import type { HorizonTransaction } from '../shared/horizon-types.js';
import { PROTOCOL_VERSION } from '../ledgers.js';
import { classicEvents, feeEvent } from '../sac/classic-events.js';
import { loadInvocation } from '../sac/meta-store.js';
import type { SandboxStore } from '../store.js';

/** TransactionMeta's version for a protocol: v3 up to 22, v4 from 23. */
export const META_VERSION = PROTOCOL_VERSION >= 23 ? 4 : 3;

export function operationCount(envelopeXdr: string, passphrase: string): number {
  const tx = TransactionBuilder.fromXdr(envelopeXdr, passphrase);
  return (tx instanceof FeeBumpTransaction ? tx.innerTransaction : tx).operations.length;
}

/** What a transaction's meta v4 says beyond its shape: each operation's events, its fee events, a return value. */
export interface MetaEvents {
  operations: xdr.ContractEvent[][];
  transaction: xdr.TransactionEvent[];
  returnValue?: xdr.ScVal;
}

export function transactionMeta(operations: number, version: 3 | 4 = META_VERSION, events?: MetaEvents): xdr.TransactionMeta {
  if (version === 4) {
    return xdr.TransactionMeta.v4(new xdr.TransactionMetaV4({
      ext: xdr.ExtensionPoint.v0(),
      txChangesBefore: [],
      operations: Array.from({ length: operations }, (_, i) => new xdr.OperationMetaV2({
        ext: xdr.ExtensionPoint.v0(), changes: [], events: events?.operations[i] ?? [],
      })),
      txChangesAfter: [],
      sorobanMeta: events?.returnValue
        ? new xdr.SorobanTransactionMetaV2({ ext: xdr.SorobanTransactionMetaExt.v0(), returnValue: events.returnValue })
        : null,
      events: events?.transaction ?? [],
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

/**
 * A transaction's CAP-67 events: a successful SAC call's (kept when applied), a successful classic
 * transaction's (derived from its envelope and result), and its fee event, failed or not.
 */
export async function transactionEvents(store: SandboxStore, t: HorizonTransaction, passphrase: string): Promise<MetaEvents> {
  const env = TransactionBuilder.fromXdr(t.envelope_xdr, passphrase);
  const inner = env instanceof FeeBumpTransaction ? env.innerTransaction : env;
  const fee = [feeEvent(t.fee_account, BigInt(t.fee_charged), passphrase)];
  if (!t.successful) return { operations: [], transaction: fee };
  // only a Soroban transaction has an invocation kept: a classic one costs no query
  const invokes = inner.operations.some((op) => op.type === 'invokeHostFunction');
  const invocation = invokes ? await loadInvocation(store, t.hash) : null;
  if (invocation) return { operations: [invocation.events], transaction: fee, returnValue: invocation.returnValue };
  return { operations: classicEvents(inner, t.result_xdr, passphrase), transaction: fee };
}

/** The meta of a transaction whose events are known (transactionEvents). */
export function metaXdr(t: HorizonTransaction, passphrase: string, events: MetaEvents): string {
  const ops = t.successful ? operationCount(t.envelope_xdr, passphrase) : 0;
  return Buffer.from(transactionMeta(ops, META_VERSION, META_VERSION === 4 ? events : undefined).toXdr()).toString('base64');
}

export async function resultMetaXdr(store: SandboxStore, t: HorizonTransaction, passphrase: string): Promise<string> {
  return metaXdr(t, passphrase, await transactionEvents(store, t, passphrase));
}

/**
 * stellar-rpc's `events` of getTransaction(s) (protocol 23): the transaction's events and each
 * operation's contract events, each list left out when empty (Go's omitempty); no diagnostic events.
 */
export function eventsJson(events: MetaEvents) {
  const b64 = (v: { toXdr(format: 'base64'): string }) => v.toXdr('base64');
  const contract = events.operations.some((op) => op.length > 0) ? events.operations.map((op) => op.map(b64)) : [];
  return {
    ...(events.transaction.length > 0 ? { transactionEventsXdr: events.transaction.map(b64) } : {}),
    ...(contract.length > 0 ? { contractEventsXdr: contract } : {}),
  };
}
