/**
 * What the RPC adapter reads out of XDR: Stellar RPC answers base64 XDR where Horizon answers
 * JSON. Every XDR accessor the adapter uses is here, in one place, so an SDK whose XDR classes
 * change (@stellar/stellar-sdk 17) changes one file.
 */
import { Keypair, StrKey, xdr, type Asset } from '@stellar/stellar-sdk';
import type { AssetRef } from '../assets.js';
import type { BalanceView } from '../network.js';

/** The operation results of a transaction's result (a fee-bump's: its inner transaction's). */
function operationResults(resultXdr: string): xdr.OperationResult[] {
  let result = xdr.TransactionResult.fromXDR(resultXdr, 'base64').result();
  const outer = result.switch().name;
  if (outer === 'txFeeBumpInnerSuccess' || outer === 'txFeeBumpInnerFailed') result = result.innerResultPair().result().result() as never;
  const name = result.switch().name;
  return name === 'txSuccess' || name === 'txFailed' ? result.results() : [];
}

/** The fee the transaction was charged, in stroops. */
export function feeCharged(resultXdr: string): bigint {
  return BigInt(xdr.TransactionResult.fromXDR(resultXdr, 'base64').feeCharged().toString());
}

/** What a successful path_payment_strict_send delivered (its result's `last.amount`), in stroops. */
export function strictSendReceived(resultXdr: string, opIndex: number): bigint {
  const tr = operationResults(resultXdr)[opIndex]!.tr();
  return BigInt(tr.pathPaymentStrictSendResult().success().last().amount().toString());
}

/** What an account_merge moved into its destination (the source's balance), in stroops. */
export function mergedAmount(resultXdr: string, opIndex: number): bigint {
  const tr = operationResults(resultXdr)[opIndex]!.tr();
  return BigInt(tr.accountMergeResult().sourceAccountBalance().toString());
}

export function accountKey(id: string): xdr.LedgerKey {
  return xdr.LedgerKey.account(new xdr.LedgerKeyAccount({ accountId: Keypair.fromPublicKey(id).xdrAccountId() }));
}

export function trustlineKey(id: string, asset: Asset): xdr.LedgerKey {
  return xdr.LedgerKey.trustline(new xdr.LedgerKeyTrustLine({ accountId: Keypair.fromPublicKey(id).xdrAccountId(), asset: asset.toTrustLineXDRObject() }));
}

export interface AccountEntry {
  sequence: bigint;
  balance: bigint;
  subentryCount: number;
  numSponsoring: number;
  numSponsored: number;
}

/** An AccountEntry (getLedgerEntries' `xdr`: LedgerEntryData). */
export function readAccount(dataXdr: string): AccountEntry {
  const a = xdr.LedgerEntryData.fromXDR(dataXdr, 'base64').account();
  let numSponsoring = 0;
  let numSponsored = 0;
  // sponsorship counts live in the v2 extension of the v1 extension (protocol 15+)
  const v1 = a.ext().switch() === 1 ? a.ext().v1() : null;
  if (v1 && v1.ext().switch() === 2) {
    numSponsoring = v1.ext().v2().numSponsoring();
    numSponsored = v1.ext().v2().numSponsored();
  }
  return {
    sequence: BigInt(a.seqNum().toString()), balance: BigInt(a.balance().toString()), subentryCount: a.numSubEntries(), numSponsoring, numSponsored,
  };
}

/** A TrustLineEntry of a classic asset (pool shares are not spendable: null). */
export function readTrustline(dataXdr: string): BalanceView | null {
  const t = xdr.LedgerEntryData.fromXDR(dataXdr, 'base64').trustLine();
  const asset = t.asset();
  const arm = asset.switch().name;
  if (arm !== 'assetTypeCreditAlphanum4' && arm !== 'assetTypeCreditAlphanum12') return null;
  const credit = arm === 'assetTypeCreditAlphanum4' ? asset.alphaNum4() : asset.alphaNum12();
  const ref: AssetRef = {
    code: Buffer.from(credit.assetCode()).toString('latin1').replace(/\0+$/, ''),
    issuer: StrKey.encodeEd25519PublicKey(Buffer.from(credit.issuer().ed25519())),
  };
  return { asset: ref, balance: BigInt(t.balance().toString()), limit: BigInt(t.limit().toString()) };
}
