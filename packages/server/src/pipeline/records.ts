/** Reading Horizon payment records (sandbox or real) into what the pipeline needs. */
import { toStroops } from '../lib/money.js';
import { assetKey, NATIVE, type AssetRef, type HorizonPaymentRecord } from '../stellar/index.js';

export interface IncomingPayment {
  asset: AssetRef;
  stellarAsset: string;
  /** what the deposit account RECEIVED (never a path payment's source_amount) */
  amount: bigint;
  from: string;
  to: string;
  memoType: string | null;
  memo: string | null;
  /** the muxed id (SEP-23, decimal u64) the payment was sent to, when its destination was an M… address */
  toMuxedId: string | null;
}

/** Successful payments INTO `address`; anything else (its creation, what it pays out) is not money in. */
export function incoming(record: HorizonPaymentRecord, address: string): IncomingPayment | null {
  if (!record.transaction_successful) return null;
  if (record.type !== 'payment' && record.type !== 'path_payment_strict_receive' && record.type !== 'path_payment_strict_send') return null;
  if (record.to !== address) return null;
  // the deposit account converting its own funds (a route execution's path payment to itself) is not money in
  if (record.from === address) return null;
  const asset: AssetRef = record.asset_type === 'native' ? NATIVE : { code: record.asset_code!, issuer: record.asset_issuer! };
  const tx = record.transaction;
  return {
    asset, stellarAsset: assetKey(asset), amount: toStroops(record.amount), from: record.from, to: record.to,
    memoType: tx?.memo_type ?? null, memo: tx && tx.memo_type !== 'none' ? tx.memo ?? null : null, toMuxedId: record.to_muxed_id ?? null,
  };
}
