/**
 * One item's outcome from its batch's transaction. The batch is all-or-nothing: when it failed
 * in a ledger because of some operation, the items whose own operations all succeeded were
 * rolled back, not refused — they go again in another transaction (nothing moved, only the
 * channel paid a fee); the item whose operation failed gets that failure.
 */
import { resultCodesOf } from '../../stellar/result-codes.js';
import type { TxOutcome } from './types.js';

export interface Confirmed {
  hash: string;
  ledger: number;
  successful: boolean;
  resultXdr: string;
}

export type Verdict = { done: TxOutcome } | { retry: true };

export function itemVerdict(tx: Confirmed, offset: number, count: number): Verdict {
  const base = { hash: tx.hash, applied: true, ledger: tx.ledger, opIndex: offset };
  if (tx.successful) return { done: { ...base, successful: true, code: null } };
  const codes = resultCodesOf(tx.resultXdr);
  const mine = codes.operations.slice(offset, offset + count);
  const failing = mine.find((c) => c !== 'op_success');
  if (mine.length === count && !failing) return { retry: true };
  const code = failing ? `${codes.transaction}: ${failing}` : codes.transaction;
  return { done: { ...base, successful: false, code } };
}
