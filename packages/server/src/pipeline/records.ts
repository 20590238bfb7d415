/**
 * Reading Horizon payment records (sandbox or real) into what the pipeline needs: the value each
 * record moves into an account, whatever operation moved it (DESIGN.md §11).
 */
import { toStroops } from '../lib/money.js';
import { assetKey, NATIVE, type AssetRef, type HorizonAssetFields, type HorizonPaymentRecord } from '../stellar/index.js';

export interface IncomingPayment {
  /** unique per movement: a classic payment's operation id (TOID), an invocation's `${toid}-${index of the change}` */
  operationId: string;
  asset: AssetRef;
  stellarAsset: string;
  /** what the deposit account RECEIVED (never a path payment's source_amount) */
  amount: bigint;
  /** the payer: an account (G…) or a contract (C…) */
  from: string;
  to: string;
  /** the muxed id (SEP-23, decimal u64) the payment was sent to: an M… destination, or CAP-67's `to_muxed_id` */
  toMuxedId: string | null;
  memoType: string | null;
  memo: string | null;
}

const assetOf = (f: HorizonAssetFields): AssetRef => (f.asset_type === 'native' ? NATIVE : { code: f.asset_code!, issuer: f.asset_issuer! });

function memoOf(record: HorizonPaymentRecord): Pick<IncomingPayment, 'memoType' | 'memo'> {
  const tx = record.transaction;
  return { memoType: tx?.memo_type ?? null, memo: tx && tx.memo_type !== 'none' ? tx.memo ?? null : null };
}

/** A successful classic payment INTO `address`; anything else (its creation, what it pays out) is not money in. */
export function incoming(record: HorizonPaymentRecord, address: string): IncomingPayment | null {
  if (!record.transaction_successful) return null;
  if (record.type !== 'payment' && record.type !== 'path_payment_strict_receive' && record.type !== 'path_payment_strict_send') return null;
  if (record.to !== address) return null;
  // the deposit account converting its own funds (a route execution's path payment to itself) is not money in
  if (record.from === address) return null;
  const asset = assetOf(record);
  return {
    operationId: record.id, asset, stellarAsset: assetKey(asset), amount: toStroops(record.amount), from: record.from, to: record.to,
    toMuxedId: record.to_muxed_id ?? null, ...memoOf(record),
  };
}

/**
 * Every movement of value INTO `address` a record carries: a classic payment's one, or each
 * `transfer` balance change of a contract invocation (a SAC transfer from a G… or C… payer),
 * or `mint` (the SAC's transfer from the asset's issuer, who is then the payer).
 */
export function movementsInto(record: HorizonPaymentRecord, address: string): IncomingPayment[] {
  if (record.type !== 'invoke_host_function') {
    const one = incoming(record, address);
    return one ? [one] : [];
  }
  if (!record.transaction_successful) return [];
  return (record.asset_balance_changes ?? []).flatMap((c, i) => {
    const from = c.type === 'transfer' ? c.from : c.type === 'mint' ? c.from ?? c.asset_issuer : undefined;
    if (!from || c.to !== address || from === address) return [];
    const asset = assetOf(c);
    return [{
      operationId: `${record.id}-${i}`, asset, stellarAsset: assetKey(asset), amount: toStroops(c.amount), from, to: c.to,
      toMuxedId: c.destination_muxed_id !== undefined && (c.destination_muxed_id_type ?? 'uint64') === 'uint64' ? c.destination_muxed_id : null, ...memoOf(record),
    }];
  });
}
