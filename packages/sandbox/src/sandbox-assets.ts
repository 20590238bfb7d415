import { NATIVE, TESTNET_EURC_ISSUER, TESTNET_USDC_ISSUER } from './shared/assets.js';
import type { SupportedAsset } from './shared/types.js';

/** The sandbox reuses testnet issuer addresses so asset ids are the same as on testnet. */
export const SANDBOX_ASSETS: { USDC: SupportedAsset; EURC: SupportedAsset; XLM: SupportedAsset } = {
  USDC: { code: 'USDC', issuer: TESTNET_USDC_ISSUER },
  EURC: { code: 'EURC', issuer: TESTNET_EURC_ISSUER },
  XLM: { code: 'XLM', issuer: NATIVE.issuer },
};
