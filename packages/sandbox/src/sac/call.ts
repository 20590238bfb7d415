/** An invokeHostFunction operation read as a call of a built-in SAC. */
import type { OperationRecord, xdr } from '@stellar/stellar-sdk';
import { sacAt, type BuiltinSac } from './contracts.js';
import { SacError } from './errors.js';

export interface SacCall {
  sac: BuiltinSac;
  fn: string;
  args: xdr.ScVal[];
  /** The invocation as authorization entries name it. */
  invocation: xdr.InvokeContractArgs;
  auth: xdr.SorobanAuthorizationEntry[];
}

/** The call, or why the sandbox cannot run it (a WASM contract, a deploy, an upload). */
export function sacCall(op: OperationRecord, passphrase: string): SacCall | SacError {
  if (op.type !== 'invokeHostFunction') return new SacError('Context', 'InvalidInput', `not an invokeHostFunction operation: ${op.type}`);
  const fn = op.func;
  if (fn.type !== 'hostFunctionTypeInvokeContract') {
    return new SacError('Context', 'InvalidInput',
      'the Fundkit sandbox runs the Stellar Asset Contracts only: it has no WASM runtime to upload or create contracts');
  }
  const args = fn.invokeContract;
  const sac = sacAt(passphrase, args.contractAddress);
  if (!sac) {
    return new SacError('Storage', 'MissingValue',
      'contract not found: the Fundkit sandbox runs the Stellar Asset Contracts of XLM, USDC and EURC only (no WASM runtime)');
  }
  return { sac, fn: args.functionName.toString(), args: args.args, invocation: args, auth: op.auth ?? [] };
}
