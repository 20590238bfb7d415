import type { Keypair, Memo, xdr } from '@stellar/stellar-sdk';

export interface TxOutcome {
  hash: string;
  /** the transaction is in a closed ledger (successful or not) */
  applied: boolean;
  /** this item's operations took effect (a batch may apply with another item's operation failing) */
  successful: boolean;
  ledger: number | null;
  /** e.g. "tx_failed: op_underfunded" */
  code: string | null;
  /** where this item's first operation sits in the transaction (to read its result) */
  opIndex?: number;
  /** why, in the network's words, when `code` alone does not say (a failed simulation) */
  detail?: string;
}

export interface BuildSpec {
  /** operations without a source are the treasury's */
  operations: xdr.Operation[];
  /** signers besides the channel and the treasury (deposit accounts whose operations are included) */
  signers?: Keypair[];
  /** a memo is the whole transaction's: an item with one is sent alone */
  memo?: Memo;
  /**
   * one invokeHostFunction (a SAC transfer): sent alone (a Soroban transaction has one
   * operation), simulated and assembled over RPC before it is signed
   */
  soroban?: boolean;
}
