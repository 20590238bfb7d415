/**
 * Horizon's result-code strings ("tx_failed", "op_underfunded") read back from a
 * TransactionResult XDR: what a transaction confirmed by lookup (async submission) says, in the
 * words a synchronous submission's problem would have used.
 */
import { xdr } from '@stellar/stellar-sdk';
import type { ResultCodes } from './types.js';

const snake = (camel: string) => camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`).replace(/^_/, '');

/** Horizon's names that do not follow from the XDR names mechanically. */
const OP_CODE_OVERRIDES: Record<string, string> = {
  already_exist: 'op_already_exists',
  seqnum_too_far: 'op_seq_num_too_far',
  over_sendmax: 'op_over_source_max',
  under_destmin: 'op_under_dest_min',
  offer_cross_self: 'op_cross_self',
  trapped: 'function_trapped',
};

const OUTER_CODES: Record<string, string> = {
  opBadAuth: 'op_bad_auth', opNoAccount: 'op_no_source_account', opNotSupported: 'op_not_supported',
  opTooManySubentries: 'op_too_many_subentries', opExceededWorkLimit: 'op_exceeded_work_limit',
  opTooManySponsoring: 'op_too_many_sponsoring',
};

/** An operation result arm's suffix ("Underfunded", "AlreadyExist") → Horizon's code ("op_underfunded"). */
export function opCodeOf(outcome: string): string {
  const suffix = snake(outcome);
  return OP_CODE_OVERRIDES[suffix] ?? `op_${suffix}`;
}

/** A TransactionResultCode arm ("txBadSeq") → Horizon's code ("tx_bad_seq"). */
export function txCode(name: string): string {
  return name === 'txNoAccount' ? 'tx_no_source_account' : snake(name);
}

export function opCode(result: xdr.OperationResult): string {
  const outer = result.type;
  if (result.type !== 'opInner') return OUTER_CODES[outer] ?? snake(outer);
  const tr = result.tr;
  const kind: string = tr.type;
  const name: string = tr.value.type;
  return opCodeOf(name.startsWith(kind) ? name.slice(kind.length) : name);
}

/** The transaction's and each operation's code (fee-bumps: the inner transaction's). */
export function resultCodesOf(resultXdr: string): ResultCodes & { operations: string[] } {
  const outer = xdr.TransactionResult.fromXdr(resultXdr, 'base64').result;
  const result = outer.type === 'txFeeBumpInnerSuccess' || outer.type === 'txFeeBumpInnerFailed'
    ? outer.innerResultPair.result.result : outer;
  const name: string = result.type;
  const transaction = txCode(name);
  const ops = result.type === 'txSuccess' || result.type === 'txFailed' ? result.results : [];
  return { transaction, operations: ops.map(opCode) };
}
