/**
 * The Stellar Asset Contracts the sandbox runs natively, as stellar-core runs them (a built-in
 * contract, no WASM): one per sandbox asset (XLM, USDC, EURC), at the id `Asset.contractId`
 * gives on the sandbox's network. Each is deployed from genesis: its instance needs no deploy.
 */
import { Address, Asset, xdr } from '@stellar/stellar-sdk';
import { assetKey, toSdkAsset } from '../../assets.js';
import { SANDBOX_ASSETS } from '../sandbox-assets.js';

export interface BuiltinSac {
  contractId: string;
  /** The asset key ("native" or "CODE:ISSUER"): also its CAP-67 event name and its `name()`. */
  asset: string;
  /** `symbol()`: "native" for XLM, the code otherwise. */
  symbol: string;
  issuer: string | null;
}

/** SAC `decimals()`: every Stellar asset has 7. */
export const SAC_DECIMALS = 7;

const byPassphrase = new Map<string, Map<string, BuiltinSac>>();

/** The built-in SACs of a network, by contract id (C…). */
export function builtinSacs(passphrase: string): Map<string, BuiltinSac> {
  let sacs = byPassphrase.get(passphrase);
  if (!sacs) {
    sacs = new Map();
    for (const ref of Object.values(SANDBOX_ASSETS)) {
      const asset: Asset = toSdkAsset(ref);
      const contractId = asset.contractId(passphrase);
      sacs.set(contractId, {
        contractId, asset: assetKey(ref), symbol: asset.isNative() ? 'native' : ref.code, issuer: ref.issuer,
      });
    }
    byPassphrase.set(passphrase, sacs);
  }
  return sacs;
}

/** The SAC a ScAddress names, if it is one of the built-in ones. */
export function sacAt(passphrase: string, address: xdr.ScAddress): BuiltinSac | undefined {
  if (address.type !== 'scAddressTypeContract') return undefined;
  return [...builtinSacs(passphrase).values()].find((s) => s.contractId === addressString(address));
}

export function addressString(address: xdr.ScAddress): string {
  // Address.fromScAddress covers every kind (account, contract, muxed…)
  return Address.fromScAddress(address).toString();
}
