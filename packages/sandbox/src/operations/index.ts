import { Keypair, xdr, type Operation, type OperationRecord } from '@stellar/stellar-sdk';
import { opResult, type OpResult } from '../results-xdr.js';
import { accountMerge } from './account-merge.js';
import { changeTrust } from './change-trust.js';
import { baseAccount, type OpContext, type OpOutcome } from './context.js';
import { createAccount } from './create-account.js';
import { invokeHostFunction } from './invoke-host-function.js';
import { pathPaymentStrictReceive, pathPaymentStrictSend } from './path-payment.js';
import { payment } from './payment.js';
import { setOptions } from './set-options.js';
import { beginSponsoring, endSponsoring } from './sponsorship.js';

type Apply = (op: never, ctx: OpContext) => Promise<OpOutcome> | OpOutcome;

const APPLY: Record<string, Apply> = {
  createAccount, payment, pathPaymentStrictReceive, pathPaymentStrictSend, changeTrust, accountMerge, setOptions,
  beginSponsoringFutureReserves: beginSponsoring, endSponsoringFutureReserves: endSponsoring, invokeHostFunction,
};

const notSupported = (): OpResult => ({ code: 'op_not_supported', xdr: xdr.OperationResult.opNotSupported() });

/** Applies one operation to the store; unsupported types fail with op_not_supported. */
export async function applyOperation(op: OperationRecord, ctx: OpContext): Promise<OpOutcome> {
  const apply = APPLY[op.type];
  return apply ? apply(op as never, ctx) : { result: notSupported() };
}

type PathOp = Operation.PathPaymentStrictReceive | Operation.PathPaymentStrictSend;

function emptyPath(Success: typeof xdr.PathPaymentStrictSendResultSuccess, op: PathOp) {
  const last = new xdr.SimplePaymentResult({
    destination: Keypair.fromPublicKey(baseAccount(op.destination)).xdrAccountId(),
    asset: op.destAsset.toXdrObject(),
    amount: xdr.Int64.fromString('0'),
  });
  return new Success({ offers: [], last });
}

/** Operations whose success carries a value; the others succeed with void. */
const SUCCESS_VALUE: Record<string, (op: never) => unknown> = {
  accountMerge: () => xdr.Int64.fromString('0'),
  invokeHostFunction: () => Buffer.alloc(32),
  pathPaymentStrictReceive: (op: PathOp) => emptyPath(xdr.PathPaymentStrictReceiveResultSuccess, op),
  pathPaymentStrictSend: (op: PathOp) => emptyPath(xdr.PathPaymentStrictSendResultSuccess, op),
};

/**
 * The result of an operation never applied because another one of its transaction was refused:
 * stellar-core leaves it at its default (the operation's type, code 0: success). A type the
 * sandbox cannot apply answers op_not_supported, as it would if applied.
 */
export function opUnchecked(op: OperationRecord): OpResult {
  if (!APPLY[op.type]) return notSupported();
  return opResult(op.type, 'Success', SUCCESS_VALUE[op.type]?.(op as never));
}
