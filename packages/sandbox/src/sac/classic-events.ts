/**
 * CAP-67's unified events of classic operations (protocol 23): every movement of a Stellar asset
 * is an event of that asset's SAC (deployed or not), as stellar-core writes them in meta v4 —
 * `transfer` (from, to, asset), `mint` when the issuer pays, `burn` when the issuer is paid, data
 * the i128 amount or {amount, to_muxed_id} to a muxed destination — and each transaction's `fee`
 * event (the fee source, the fee charged) before all transactions. Derived from the envelope and
 * its result: create_account, payment and account_merge. Path payments move money through offers
 * (a transfer per hop in core); the sandbox emits none for them yet.
 */
import { Asset, MuxedAccount, nativeToScVal, xdr, type OperationRecord, type Transaction } from '@stellar/stellar-sdk';
import { baseAccount, stroops } from '../operations/context.js';
import { contractEvent } from './run.js';

function assetName(asset: Asset): string {
  return asset.isNative() ? 'native' : `${asset.getCode()}:${asset.getIssuer()}`;
}

const muxedIdOf = (address: string) => (address.startsWith('M') ? BigInt(MuxedAccount.fromAddress(address, '0').id()) : undefined);

function amountData(amount: bigint, muxedId: bigint | undefined): xdr.ScVal {
  const value = nativeToScVal(amount, { type: 'i128' });
  if (muxedId === undefined) return value;
  return xdr.ScVal.scvMap([
    new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol('amount'), val: value }),
    new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol('to_muxed_id'), val: xdr.ScVal.scvU64(muxedId) }),
  ]);
}

const address = (a: string) => nativeToScVal(a, { type: 'address' });

/** One movement of `asset` from → to: transfer, or mint/burn where the issuer is a side. */
export function movement(asset: Asset, passphrase: string, from: string, toAddress: string, amount: bigint): xdr.ContractEvent {
  const to = baseAccount(toAddress);
  const name = xdr.ScVal.scvString(assetName(asset));
  const data = amountData(amount, muxedIdOf(toAddress));
  const id = asset.contractId(passphrase);
  const issuer = asset.isNative() ? null : asset.getIssuer();
  if (from === issuer) return contractEvent(id, [xdr.ScVal.scvSymbol('mint'), address(to), name], data);
  if (to === issuer) return contractEvent(id, [xdr.ScVal.scvSymbol('burn'), address(from), name], nativeToScVal(amount, { type: 'i128' }));
  return contractEvent(id, [xdr.ScVal.scvSymbol('transfer'), address(from), address(to), name], data);
}

/** What an account_merge moved: its result's source account balance. */
function mergedBalance(result: xdr.OperationResult | undefined): bigint {
  if (result?.type !== 'opInner' || result.tr.type !== 'accountMerge') return 0n;
  const r = result.tr.accountMergeResult;
  return r.type === 'accountMergeSuccess' ? r.sourceAccountBalance : 0n;
}

function operationEvents(op: OperationRecord, source: string, passphrase: string, result: xdr.OperationResult | undefined): xdr.ContractEvent[] {
  const from = baseAccount(op.source ?? source);
  switch (op.type) {
    case 'createAccount':
      return [movement(Asset.native(), passphrase, from, op.destination, stroops(op.startingBalance))];
    case 'payment':
      return [movement(op.asset, passphrase, from, op.destination, stroops(op.amount))];
    case 'accountMerge':
      return [movement(Asset.native(), passphrase, from, op.destination, mergedBalance(result))];
    default:
      return [];
  }
}

/** The operation results of a transaction result (a fee-bump's: its inner transaction's). */
function operationResults(resultXdr: string): xdr.OperationResult[] {
  const outer = xdr.TransactionResult.fromXdr(resultXdr, 'base64').result;
  const result = outer.type === 'txFeeBumpInnerSuccess' || outer.type === 'txFeeBumpInnerFailed' ? outer.innerResultPair.result.result : outer;
  return result.type === 'txSuccess' || result.type === 'txFailed' ? result.results : [];
}

/** Each classic operation's events, in order (a successful transaction's; a failed one moved nothing). */
export function classicEvents(tx: Transaction, resultXdr: string, passphrase: string): xdr.ContractEvent[][] {
  const results = operationResults(resultXdr);
  return tx.operations.map((op, i) => operationEvents(op, tx.source, passphrase, results[i]));
}

/** The `fee` event: what the fee source was charged, before all transactions (no refunds here). */
export function feeEvent(feeAccount: string, fee: bigint, passphrase: string): xdr.TransactionEvent {
  return new xdr.TransactionEvent({
    stage: xdr.TransactionEventStage.transactionEventStageBeforeAllTxs,
    event: contractEvent(Asset.native().contractId(passphrase), [xdr.ScVal.scvSymbol('fee'), address(baseAccount(feeAccount))],
      nativeToScVal(fee, { type: 'i128' })),
  });
}
