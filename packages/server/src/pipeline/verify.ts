/**
 * Re-reads a transaction and checks that it really moved `amount` of `asset` to `destination`
 * (a PAYMENT_CONFIRMED needs the closed-ledger truth, not the record that announced it).
 */
import { Asset, FeeBumpTransaction, TransactionBuilder, xdr, type OperationRecord, type Transaction } from '@stellar/stellar-sdk';
import { toStroops } from '../lib/money.js';
import { assetKey, fromSdkAsset, type TransactionView } from '../stellar/index.js';

export interface Expected {
  destination: string;
  stellarAsset: string;
  amount: bigint;
}

export type Verdict = { ok: true } | { ok: false; code: string; message: string };

function opResults(resultXdr: string): xdr.OperationResult[] {
  const result = xdr.TransactionResult.fromXdr(resultXdr, 'base64').result;
  if (result.type === 'txFeeBumpInnerSuccess' || result.type === 'txFeeBumpInnerFailed') {
    const inner = result.innerResultPair.result.result;
    return inner.type === 'txSuccess' || inner.type === 'txFailed' ? inner.results : [];
  }
  return result.type === 'txSuccess' || result.type === 'txFailed' ? result.results : [];
}

/** What the destination received from operation `index` of the transaction. */
function received(op: OperationRecord, index: number, resultXdr: string): bigint | null {
  if (op.type === 'payment') return toStroops(op.amount);
  if (op.type === 'pathPaymentStrictReceive') return toStroops(op.destAmount);
  if (op.type === 'pathPaymentStrictSend') {
    try {
      const tr = xdr.expectUnionVariant(opResults(resultXdr)[index]!, 'opInner').tr;
      const sent = xdr.expectUnionVariant(tr, 'pathPaymentStrictSend').pathPaymentStrictSendResult;
      return BigInt(xdr.expectUnionVariant(sent, 'pathPaymentStrictSendSuccess').success.last.amount);
    } catch {
      return null;
    }
  }
  return null;
}

function destAsset(op: OperationRecord): Asset | null {
  if (op.type === 'payment') return op.asset;
  if (op.type === 'pathPaymentStrictReceive' || op.type === 'pathPaymentStrictSend') return op.destAsset;
  return null;
}

export function verifyTransfer(view: TransactionView | null, expected: Expected, passphrase: string): Verdict {
  if (!view) return { ok: false, code: 'transaction_not_found', message: 'the transaction is not in a closed ledger' };
  if (!view.successful) return { ok: false, code: 'transaction_failed', message: 'the transaction did not succeed' };
  const env = TransactionBuilder.fromXdr(view.envelopeXdr, passphrase);
  const tx: Transaction = env instanceof FeeBumpTransaction ? env.innerTransaction : env;
  const match = tx.operations.some((op, i) => {
    const asset = destAsset(op);
    if (!asset || !('destination' in op) || op.destination !== expected.destination) return false;
    return assetKey(fromSdkAsset(asset)) === expected.stellarAsset && received(op, i, view.resultXdr) === expected.amount;
  });
  return match ? { ok: true } : { ok: false, code: 'transfer_mismatch', message: 'no operation moved this amount of this asset to the destination' };
}
