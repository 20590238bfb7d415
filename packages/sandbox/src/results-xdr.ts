/**
 * Builds real xdr.TransactionResult values (stellar-sdk decodes result_xdr) and Horizon's
 * string result codes from the same names, so the two can never disagree.
 */
import { xdr } from '@stellar/stellar-sdk';
import { opCodeOf, txCode } from './shared/result-codes.js';

export { txCode };

/** An operation's outcome: Horizon code ("op_success", "op_underfunded", ...) and its XDR. */
export interface OpResult {
  code: string;
  xdr: xdr.OperationResult;
}

type Dyn = Record<string, (value?: unknown) => unknown>;

/**
 * `kind` is the OperationResultTr arm (e.g. "payment"), `outcome` the suffix of the result code
 * (e.g. "Success", "Underfunded"): opResult('payment', 'Underfunded') → PAYMENT_UNDERFUNDED.
 */
export function opResult(kind: string, outcome: string, value?: unknown): OpResult {
  const resultType = `${kind[0]!.toUpperCase()}${kind.slice(1)}Result`;
  const union = (xdr as unknown as Record<string, Dyn>)[resultType]!;
  const arm = union[`${kind}${outcome}`]!;
  const inner = value === undefined ? arm() : arm(value);
  const tr = (xdr.OperationResultTr as unknown as Dyn)[kind]!(inner);
  return { code: opCodeOf(outcome), xdr: xdr.OperationResult.opInner(tr as xdr.OperationResultTr) };
}

export function opNoSourceAccount(): OpResult {
  return { code: 'op_no_source_account', xdr: xdr.OperationResult.opNoAccount() };
}

export function opBadAuth(): OpResult {
  return { code: 'op_bad_auth', xdr: xdr.OperationResult.opBadAuth() };
}

function int64(value: bigint): xdr.Int64 {
  return xdr.Int64.fromString(value.toString());
}

/** A TransactionResult for a plain transaction; `name` is a TransactionResultCode arm. */
export function txResult(fee: bigint, name: string, ops: xdr.OperationResult[] = []) {
  const withOps = name === 'txSuccess' || name === 'txFailed';
  const arm = (xdr.TransactionResultResult as unknown as Dyn)[name]!;
  return new xdr.TransactionResult({
    feeCharged: int64(fee),
    result: (withOps ? arm(ops) : arm()) as xdr.TransactionResultResult,
    ext: xdr.TransactionResultExt.v0(),
  });
}

/** The result (base64) and Horizon codes of a transaction refused before it could apply. */
export function rejectedResult(r: { name: string; feeCharged: bigint; ops?: OpResult[] }) {
  const resultXdr = txResult(r.feeCharged, r.name, r.ops?.map((o) => o.xdr)).toXdr('base64');
  const operations = r.ops?.map((o) => o.code);
  return { resultXdr, codes: { transaction: txCode(r.name), ...(operations ? { operations } : {}) } };
}

/** The outer result of a fee-bump whose inner transaction was applied (successfully or not). */
export function feeBumpResult(fee: bigint, innerHash: Buffer, innerName: string, ops: xdr.OperationResult[]) {
  const innerArm = (xdr.InnerTransactionResultResult as unknown as Dyn)[innerName]!;
  const inner = new xdr.InnerTransactionResult({
    feeCharged: int64(0n),
    result: innerArm(ops) as xdr.InnerTransactionResultResult,
    ext: xdr.InnerTransactionResultExt.v0(),
  });
  const pair = new xdr.InnerTransactionResultPair({ transactionHash: innerHash, result: inner });
  const outer = innerName === 'txSuccess' ? 'txFeeBumpInnerSuccess' : 'txFeeBumpInnerFailed';
  const arm = (xdr.TransactionResultResult as unknown as Dyn)[outer]!;
  return new xdr.TransactionResult({
    feeCharged: int64(fee),
    result: arm(pair) as xdr.TransactionResultResult,
    ext: xdr.TransactionResultExt.v0(),
  });
}
