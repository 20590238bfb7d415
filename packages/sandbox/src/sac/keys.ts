/** The ledger keys a SAC call touches, as stellar-core's footprint names them. */
import { Address, Keypair, xdr } from '@stellar/stellar-sdk';
import { parseAssetKey, toSdkAsset } from '../shared/assets.js';

export function accountKey(account: string): xdr.LedgerKey {
  return xdr.LedgerKey.account(new xdr.LedgerKeyAccount({ accountId: Keypair.fromPublicKey(account).xdrAccountId() }));
}

export function trustlineKey(account: string, asset: string): xdr.LedgerKey {
  return xdr.LedgerKey.trustline(new xdr.LedgerKeyTrustLine({
    accountId: Keypair.fromPublicKey(account).xdrAccountId(), asset: toSdkAsset(parseAssetKey(asset)).toTrustLineXDRObject(),
  }));
}

/** The contract's instance (persistent contract data under LedgerKeyContractInstance). */
export function instanceKey(contractId: string): xdr.LedgerKey {
  return xdr.LedgerKey.contractData(new xdr.LedgerKeyContractData({
    contract: new Address(contractId).toScAddress(), key: xdr.ScVal.scvLedgerKeyContractInstance(),
    durability: xdr.ContractDataDurability.persistent,
  }));
}

/** An address credential's nonce: temporary contract data of the signing address. */
export function nonceKey(address: string, nonce: bigint): xdr.LedgerKey {
  return xdr.LedgerKey.contractData(new xdr.LedgerKeyContractData({
    contract: new Address(address).toScAddress(), key: xdr.ScVal.scvLedgerKeyNonce(new xdr.ScNonceKey({ nonce })),
    durability: xdr.ContractDataDurability.temporary,
  }));
}

export const keyId = (k: xdr.LedgerKey): string => k.toXdr('base64');

/** Classic entries (accounts, trustlines) are read from disk; Soroban's are in memory (protocol 23). */
export const isClassic = (k: xdr.LedgerKey): boolean => k.type === 'account' || k.type === 'trustline';

/** Read-only and read-write keys, each once; a key both read and written is read-write only. */
export class Footprint {
  private readonly ro = new Map<string, xdr.LedgerKey>();
  private readonly rw = new Map<string, xdr.LedgerKey>();

  read(k: xdr.LedgerKey): void {
    if (!this.rw.has(keyId(k))) this.ro.set(keyId(k), k);
  }

  write(k: xdr.LedgerKey): void {
    this.ro.delete(keyId(k));
    this.rw.set(keyId(k), k);
  }

  get readOnly(): xdr.LedgerKey[] {
    return [...this.ro.values()];
  }

  get readWrite(): xdr.LedgerKey[] {
    return [...this.rw.values()];
  }

  /** The first key this footprint needs that `declared` lacks (a read-write one must be declared so). */
  missingFrom(declared: xdr.LedgerFootprint): xdr.LedgerKey | undefined {
    const rw = new Set(declared.readWrite.map(keyId));
    const any = new Set([...rw, ...declared.readOnly.map(keyId)]);
    return this.readWrite.find((k) => !rw.has(keyId(k))) ?? this.readOnly.find((k) => !any.has(keyId(k)));
  }
}
