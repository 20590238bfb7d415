/** Horizon resources → the interface's views (BigInt stroops, AssetRef). */
import type { Horizon } from '@stellar/stellar-sdk';
import { toStroops } from '../../lib/money.js';
import { NATIVE, type AssetRef } from '../assets.js';
import type { HorizonTransaction } from '../horizon-types.js';
import type { AccountView, BalanceView, PathQuote, TransactionView } from '../network.js';

/** Horizon amounts are decimal strings with 7 places; zero is a valid balance. */
export function stroops(amount: string): bigint {
  return toStroops(amount, { allowZero: true });
}

interface HorizonAssetLike {
  asset_type: string;
  asset_code?: string;
  asset_issuer?: string;
}

export function assetOf(fields: HorizonAssetLike): AssetRef {
  if (fields.asset_type === 'native') return NATIVE;
  if (!fields.asset_code || !fields.asset_issuer) throw new Error(`asset without code/issuer: ${fields.asset_type}`);
  return { code: fields.asset_code, issuer: fields.asset_issuer };
}

function balanceOf(b: Horizon.HorizonApi.BalanceLine): BalanceView | null {
  // liquidity-pool shares are not spendable assets: the pipeline never sees them
  if (b.asset_type === 'liquidity_pool_shares') return null;
  const asset = assetOf(b);
  return { asset, balance: stroops(b.balance), limit: 'limit' in b ? stroops(b.limit) : null };
}

export function accountView(a: Horizon.AccountResponse): AccountView {
  return {
    id: a.account_id,
    sequence: BigInt(a.sequence),
    subentryCount: a.subentry_count,
    numSponsoring: a.num_sponsoring ?? 0,
    numSponsored: a.num_sponsored ?? 0,
    balances: a.balances.map(balanceOf).filter((b): b is BalanceView => b !== null),
  };
}

/** Older Horizons send fee_charged as a number; current ones as a string. */
export function transactionView(t: HorizonTransaction): TransactionView {
  return {
    hash: t.hash, ledger: t.ledger, successful: t.successful, createdAt: t.created_at, sourceAccount: t.source_account,
    feeAccount: t.fee_account ?? t.source_account, feeCharged: BigInt(t.fee_charged), memoType: t.memo_type,
    memo: t.memo ?? null, envelopeXdr: t.envelope_xdr, resultXdr: t.result_xdr,
  };
}

export interface HorizonPathRecord {
  source_asset_type: string;
  source_asset_code?: string;
  source_asset_issuer?: string;
  source_amount: string;
  destination_asset_type: string;
  destination_asset_code?: string;
  destination_asset_issuer?: string;
  destination_amount: string;
  path: HorizonAssetLike[];
}

export function pathQuote(p: HorizonPathRecord): PathQuote {
  return {
    sourceAsset: assetOf({ asset_type: p.source_asset_type, asset_code: p.source_asset_code, asset_issuer: p.source_asset_issuer }),
    sourceAmount: stroops(p.source_amount),
    destinationAsset: assetOf({
      asset_type: p.destination_asset_type, asset_code: p.destination_asset_code, asset_issuer: p.destination_asset_issuer,
    }),
    destinationAmount: stroops(p.destination_amount),
    path: p.path.map(assetOf),
  };
}
