import { Asset } from '@stellar/stellar-sdk';

/** An asset as the rest of the server sees it: issuer null means native XLM. */
export interface AssetRef {
  code: string;
  issuer: string | null;
}

export const NATIVE: AssetRef = { code: 'XLM', issuer: null };

/** Testnet issuers (fixtures README); the sandbox reuses them so asset ids match testnet. */
export const TESTNET_USDC_ISSUER = 'GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5';
export const TESTNET_EURC_ISSUER = 'GB3Q6QDZYTHWT7E5PVS3W7FUT5GVAFC5KSZFFLPU25GO7VTC3NM2ZTVO';
export const PUBNET_USDC_ISSUER = 'GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN';
export const PUBNET_EURC_ISSUER = 'GDHU6WRG4IEQXM5NZ4BMPKOXHW76MZM4Y2IEMFDVXBSDP6SJY4ITNPP2';

/** Stable string key used in SQL and maps: "native" or "CODE:ISSUER". */
export function assetKey(asset: AssetRef): string {
  return asset.issuer === null ? 'native' : `${asset.code}:${asset.issuer}`;
}

export function parseAssetKey(key: string): AssetRef {
  if (key === 'native' || key === 'XLM') return NATIVE;
  const [code, issuer] = key.split(':');
  if (!code || !issuer) throw new Error(`bad asset "${key}"`);
  return { code, issuer };
}

export function fromSdkAsset(asset: Asset): AssetRef {
  return asset.isNative() ? NATIVE : { code: asset.getCode(), issuer: asset.getIssuer()! };
}

export function toSdkAsset(asset: AssetRef): Asset {
  return asset.issuer === null ? Asset.native() : new Asset(asset.code, asset.issuer);
}

export function assetType(asset: AssetRef): 'native' | 'credit_alphanum4' | 'credit_alphanum12' {
  if (asset.issuer === null) return 'native';
  return asset.code.length <= 4 ? 'credit_alphanum4' : 'credit_alphanum12';
}

/** Horizon's asset fields with an optional prefix ("source_", "destination_"). */
export function horizonAssetFields(asset: AssetRef, prefix = ''): Record<string, string> {
  const fields: Record<string, string> = { [`${prefix}asset_type`]: assetType(asset) };
  if (asset.issuer !== null) {
    fields[`${prefix}asset_code`] = asset.code;
    fields[`${prefix}asset_issuer`] = asset.issuer;
  }
  return fields;
}

export function sameAsset(a: AssetRef, b: AssetRef): boolean {
  return assetKey(a) === assetKey(b);
}
