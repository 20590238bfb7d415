/** Horizon JSON shapes (see fixtures/horizon), shared by the sandbox and the Horizon adapter. */

export interface HorizonLink {
  href: string;
  templated?: boolean;
}

export interface HorizonAssetFields {
  asset_type: string;
  asset_code?: string;
  asset_issuer?: string;
}

export interface HorizonRecordBase {
  _links?: Record<string, HorizonLink>;
  id: string;
  paging_token: string;
  transaction_successful: boolean;
  source_account: string;
  type: string;
  type_i: number;
  created_at: string;
  transaction_hash: string;
  /** Present with join=transactions. */
  transaction?: HorizonTransaction;
}

export interface HorizonPaymentOp extends HorizonRecordBase, HorizonAssetFields {
  type: 'payment';
  from: string;
  to: string;
  /** Horizon's fields for a payment to a muxed address (SEP-23): the M… address and its id (decimal u64) */
  to_muxed?: string;
  to_muxed_id?: string;
  amount: string;
}

export interface HorizonPathPaymentOp extends HorizonRecordBase, HorizonAssetFields {
  type: 'path_payment_strict_receive' | 'path_payment_strict_send';
  from: string;
  to: string;
  to_muxed?: string;
  to_muxed_id?: string;
  amount: string;
  path: HorizonAssetFields[];
  source_amount: string;
  source_max?: string;
  destination_min?: string;
  source_asset_type: string;
  source_asset_code?: string;
  source_asset_issuer?: string;
}

export interface HorizonCreateAccountOp extends HorizonRecordBase {
  type: 'create_account';
  starting_balance: string;
  funder: string;
  account: string;
}

export interface HorizonAccountMergeOp extends HorizonRecordBase {
  type: 'account_merge';
  account: string;
  into: string;
}

/** One of an invocation's movements of a Stellar asset (Horizon reads them from the SAC's events only). */
export interface HorizonAssetBalanceChange extends HorizonAssetFields {
  type: 'transfer' | 'mint' | 'burn' | 'clawback';
  from?: string;
  to?: string;
  amount: string;
  /** CAP-67 `to_muxed_id`: a muxed destination's id, or (a classic payment's) the memo in its place */
  destination_muxed_id?: string;
  /** what destination_muxed_id holds: only a uint64 is a muxed id (string and bytes are a memo) */
  destination_muxed_id_type?: 'uint64' | 'string' | 'bytes';
}

/** /payments lists a contract invocation that moved a Stellar asset, with its balance changes. */
export interface HorizonInvokeHostFunctionOp extends HorizonRecordBase {
  type: 'invoke_host_function';
  function: string;
  asset_balance_changes?: HorizonAssetBalanceChange[] | null;
}

export type HorizonPaymentRecord =
  | HorizonPaymentOp
  | HorizonPathPaymentOp
  | HorizonCreateAccountOp
  | HorizonAccountMergeOp
  | HorizonInvokeHostFunctionOp;

/** Operations that are not payments: their type-specific fields vary, so they stay open. */
export interface HorizonOtherOp extends HorizonRecordBase {
  [field: string]: unknown;
}

/** A record of /operations: payments (the union above) and every other operation type. */
export type HorizonOperationRecord = HorizonPaymentRecord | HorizonOtherOp;

/** A record of /effects (Horizon's effect resource): the common head, then type-specific fields. */
export interface HorizonEffect {
  _links?: Record<string, HorizonLink>;
  id: string;
  paging_token: string;
  account: string;
  type: string;
  type_i: number;
  created_at: string;
  [field: string]: unknown;
}

/** A record of /ledgers. */
export interface HorizonLedger {
  _links?: Record<string, HorizonLink>;
  id: string;
  paging_token: string;
  hash: string;
  prev_hash?: string;
  sequence: number;
  successful_transaction_count: number;
  failed_transaction_count: number;
  operation_count: number;
  tx_set_operation_count: number;
  closed_at: string;
  total_coins: string;
  fee_pool: string;
  base_fee_in_stroops: number;
  base_reserve_in_stroops: number;
  max_tx_set_size: number;
  protocol_version: number;
  header_xdr: string;
}

export interface HorizonTransaction {
  memo?: string;
  memo_bytes?: string;
  _links?: Record<string, HorizonLink>;
  id: string;
  paging_token: string;
  successful: boolean;
  hash: string;
  ledger: number;
  created_at: string;
  source_account: string;
  source_account_sequence: string;
  fee_account: string;
  fee_charged: string;
  max_fee: string;
  operation_count: number;
  envelope_xdr: string;
  result_xdr: string;
  fee_meta_xdr: string;
  memo_type: 'none' | 'text' | 'id' | 'hash' | 'return';
  signatures: string[];
  valid_after?: string;
  valid_before?: string;
  preconditions?: { timebounds: { min_time: string; max_time?: string } };
  fee_bump_transaction?: { hash: string; signatures: string[] };
  inner_transaction?: { hash: string; signatures: string[]; max_fee: string };
}
