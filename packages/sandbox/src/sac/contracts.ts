/**
 * The Stellar Asset Contracts the sandbox runs natively, as stellar-core runs them (a built-in
 * contract, no WASM): one per sandbox asset (XLM, USDC, EURC), at the id `Asset.contractId`
 * gives on the sandbox's network. Each is deployed from genesis: its instance needs no deploy.
 */
import { Address, Asset, xdr } from '@stellar/stellar-sdk';
import { assetKey, toSdkAsset } from '../shared/assets.js';
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

/**
 * The SAC's instance entry, as getLedgerEntries serves it: the built-in executable and its
 * metadata (decimals, name, symbol), with the issuer as admin for an issued asset.
 */
export function instanceEntry(sac: BuiltinSac): xdr.LedgerEntryData {
  const sym = (s: string) => xdr.ScVal.scvSymbol(s);
  const entry = (key: xdr.ScVal, val: xdr.ScVal) => new xdr.ScMapEntry({ key, val });
  const storage = [
    entry(sym('METADATA'), xdr.ScVal.scvMap([
      entry(sym('decimal'), xdr.ScVal.scvU32(SAC_DECIMALS)),
      entry(sym('name'), xdr.ScVal.scvString(sac.asset)),
      entry(sym('symbol'), xdr.ScVal.scvString(sac.symbol)),
    ])),
    ...(sac.issuer ? [entry(xdr.ScVal.scvVec([sym('Admin')]), new Address(sac.issuer).toScVal())] : []),
  ];
  return xdr.LedgerEntryData.contractData(new xdr.ContractDataEntry({
    ext: xdr.ExtensionPoint.v0(),
    contract: new Address(sac.contractId).toScAddress(),
    key: xdr.ScVal.scvLedgerKeyContractInstance(),
    durability: xdr.ContractDataDurability.persistent,
    val: xdr.ScVal.scvContractInstance(new xdr.ScContractInstance({
      executable: xdr.ContractExecutable.contractExecutableStellarAsset(), storage,
    })),
  }));
}
