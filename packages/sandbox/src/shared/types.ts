/**
 * Shapes the sandbox shares with any Stellar client: result codes (Horizon's `extras.result_codes`),
 * the assets it serves, and path-finding queries and quotes. A client (the Fundkit server's
 * StellarNetwork) declares the same shapes; they match structurally.
 */
import type { AssetRef } from './assets.js';

export interface SupportedAsset extends AssetRef {
  code: 'USDC' | 'EURC' | 'XLM';
}

export interface ResultCodes {
  transaction: string;
  inner_transaction?: string;
  operations?: string[];
}

export interface PathQuote {
  sourceAsset: AssetRef;
  sourceAmount: bigint;
  destinationAsset: AssetRef;
  destinationAmount: bigint;
  /** Intermediate assets, as in a path payment operation. */
  path: AssetRef[];
}

export interface StrictReceiveQuery {
  sourceAssets: AssetRef[];
  destinationAsset: AssetRef;
  destinationAmount: bigint;
}

export interface StrictSendQuery {
  sourceAsset: AssetRef;
  sourceAmount: bigint;
  destinationAssets: AssetRef[];
}
