/**
 * Horizon's `asset_balance_changes` of an invoke_host_function record, read from the call's
 * CAP-67 events as Horizon reads them: a `transfer` of a Stellar asset is one change.
 */
import { scValToNative, xdr } from '@stellar/stellar-sdk';
import { fromStroops } from '../shared/money.js';
import { horizonAssetFields, parseAssetKey } from '../shared/assets.js';

export interface AssetBalanceChange {
  asset_type: string;
  asset_code?: string;
  asset_issuer?: string;
  type: 'transfer';
  from: string;
  to: string;
  amount: string;
  destination_muxed_id?: string;
}

/** A transfer event's parts, or null for any other event. */
export function transferOf(e: xdr.ContractEvent): { from: string; to: string; asset: string; amount: bigint; muxedId?: bigint } | null {
  if (e.body.type !== 'v0') return null;
  const { topics, data } = e.body.v0;
  if (topics.length !== 4 || topics[0]!.type !== 'scvSymbol' || topics[0]!.sym.toString() !== 'transfer') return null;
  const value = scValToNative(data) as bigint | { amount: bigint; to_muxed_id: bigint };
  const amount = typeof value === 'bigint' ? value : value.amount;
  return {
    from: scValToNative(topics[1]!) as string, to: scValToNative(topics[2]!) as string, asset: scValToNative(topics[3]!) as string,
    amount, ...(typeof value === 'bigint' ? {} : { muxedId: BigInt(value.to_muxed_id) }),
  };
}

export function assetBalanceChanges(events: xdr.ContractEvent[]): AssetBalanceChange[] {
  return events.map(transferOf).filter((t) => t !== null).map((t) => ({
    ...(horizonAssetFields(parseAssetKey(t.asset)) as { asset_type: string }),
    type: 'transfer' as const, from: t.from, to: t.to, amount: fromStroops(t.amount),
    ...(t.muxedId === undefined ? {} : { destination_muxed_id: t.muxedId.toString() }),
  }));
}
