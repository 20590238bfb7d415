import { StrKey } from '@stellar/stellar-sdk';
import { type AssetRef, NATIVE, TESTNET_EURC_ISSUER, TESTNET_USDC_ISSUER } from './shared/assets.js';
import type { SupportedAsset } from './shared/types.js';

/** The sandbox reuses testnet issuer addresses so asset ids are the same as on testnet. */
export const SANDBOX_ASSETS: { USDC: SupportedAsset; EURC: SupportedAsset; XLM: SupportedAsset } = {
  USDC: { code: 'USDC', issuer: TESTNET_USDC_ISSUER },
  EURC: { code: 'EURC', issuer: TESTNET_EURC_ISSUER },
  XLM: { code: 'XLM', issuer: NATIVE.issuer },
};

/** An asset as the sandbox's controls name it: XLM (or native), USDC, EURC or CODE:ISSUER (any issuer); null when it is none. */
export function parseAsset(raw: unknown): AssetRef | null {
  if (raw === undefined || raw === 'XLM' || raw === 'native') return SANDBOX_ASSETS.XLM;
  if (raw === 'USDC' || raw === 'EURC') return SANDBOX_ASSETS[raw];
  if (typeof raw !== 'string') return null;
  const [code, issuer, extra] = raw.split(':');
  if (extra !== undefined || !code || !/^[A-Za-z0-9]{1,12}$/.test(code) || !issuer || !StrKey.isValidEd25519PublicKey(issuer)) return null;
  return { code, issuer };
}
