/**
 * What the RPC adapter reads out of XDR: Stellar RPC answers base64 XDR where Horizon answers
 * JSON. Every XDR accessor the adapter uses is here, in one place, so an SDK whose XDR classes
 * change (@stellar/stellar-sdk 17) changes one file.
 */
import { Keypair, MuxedAccount, scValToNative, StrKey, xdr, type Asset } from '@stellar/stellar-sdk';
import type { AssetRef } from '../assets.js';
import type { BalanceView } from '../network.js';

/** The operation results of a transaction's result (a fee-bump's: its inner transaction's). */
function operationResults(resultXdr: string): xdr.OperationResult[] {
  const result = xdr.TransactionResult.fromXdr(resultXdr, 'base64').result;
  const inner = result.type === 'txFeeBumpInnerSuccess' || result.type === 'txFeeBumpInnerFailed' ? result.innerResultPair.result.result : result;
  return inner.type === 'txSuccess' || inner.type === 'txFailed' ? inner.results : [];
}

/** The fee the transaction was charged, in stroops. */
export function feeCharged(resultXdr: string): bigint {
  return BigInt(xdr.TransactionResult.fromXdr(resultXdr, 'base64').feeCharged);
}

/** What a successful path_payment_strict_send delivered (its result's `last.amount`), in stroops. */
export function strictSendReceived(resultXdr: string, opIndex: number): bigint {
  const tr = xdr.expectUnionVariant(operationResults(resultXdr)[opIndex]!, 'opInner').tr;
  const sent = xdr.expectUnionVariant(tr, 'pathPaymentStrictSend').pathPaymentStrictSendResult;
  return BigInt(xdr.expectUnionVariant(sent, 'pathPaymentStrictSendSuccess').success.last.amount);
}

/** What an account_merge moved into its destination (the source's balance), in stroops. */
export function mergedAmount(resultXdr: string, opIndex: number): bigint {
  const tr = xdr.expectUnionVariant(operationResults(resultXdr)[opIndex]!, 'opInner').tr;
  const merged = xdr.expectUnionVariant(tr, 'accountMerge').accountMergeResult;
  return BigInt(xdr.expectUnionVariant(merged, 'accountMergeSuccess').sourceAccountBalance);
}

export function accountKey(id: string): xdr.LedgerKey {
  return xdr.LedgerKey.account(new xdr.LedgerKeyAccount({ accountId: Keypair.fromPublicKey(id).xdrAccountId() }));
}

export function trustlineKey(id: string, asset: Asset): xdr.LedgerKey {
  return xdr.LedgerKey.trustline(new xdr.LedgerKeyTrustLine({ accountId: Keypair.fromPublicKey(id).xdrAccountId(), asset: asset.toTrustLineXdrObject() }));
}

export interface AccountEntry {
  sequence: bigint;
  balance: bigint;
  subentryCount: number;
  numSponsoring: number;
  numSponsored: number;
}

/** The v2 extension's sponsorship counts (protocol 15+), under the v1 extension when present. */
function sponsorships(ext: unknown): { numSponsoring: number; numSponsored: number } {
  const v1 = (ext as { type?: string; v1?: { ext?: { type?: string; v2?: { numSponsoring: number; numSponsored: number } } } });
  const v2 = v1.type === 'v1' && v1.v1?.ext?.type === 'v2' ? v1.v1.ext.v2 : undefined;
  return { numSponsoring: v2?.numSponsoring ?? 0, numSponsored: v2?.numSponsored ?? 0 };
}

/** An AccountEntry (getLedgerEntries' `xdr`: LedgerEntryData). */
export function readAccount(dataXdr: string): AccountEntry {
  const a = xdr.expectUnionVariant(xdr.LedgerEntryData.fromXdr(dataXdr, 'base64'), 'account').account;
  return { sequence: BigInt(a.seqNum), balance: BigInt(a.balance), subentryCount: a.numSubEntries, ...sponsorships(a.ext) };
}

/** A TrustLineEntry of a classic asset (pool shares are not spendable: null). */
export function readTrustline(dataXdr: string): BalanceView | null {
  const t = xdr.expectUnionVariant(xdr.LedgerEntryData.fromXdr(dataXdr, 'base64'), 'trustline').trustLine;
  const asset = t.asset;
  if (asset.type !== 'assetTypeCreditAlphanum4' && asset.type !== 'assetTypeCreditAlphanum12') return null;
  const credit = asset.type === 'assetTypeCreditAlphanum4' ? asset.alphaNum4 : asset.alphaNum12;
  const ref: AssetRef = {
    code: Buffer.from(credit.assetCode.toBytes()).toString('latin1').replace(/\0+$/, ''),
    issuer: StrKey.encodeEd25519PublicKey(Buffer.from(credit.issuer.ed25519.toBytes())),
  };
  return { asset: ref, balance: BigInt(t.balance), limit: BigInt(t.limit) };
}

/** A Soroban `transfer` (or `mint`) event as emitted by a contract (unverified: the caller checks the contract). */
export interface TransferEvent {
  /** a SAC emits `mint` for a transfer from the asset's issuer (CAP-67) */
  kind: 'transfer' | 'mint';
  /** the operation that emitted it */
  opIndex: number;
  /** the emitting contract (C…) */
  contractId: string;
  /** null for a mint: the asset's issuer */
  from: string | null;
  to: string;
  amount: bigint;
  /** CAP-67: the muxed id of a muxed destination (only a u64 id; a text or hash memo is not one) */
  toMuxedId: string | null;
}

/** i128 data, or (CAP-67) a map {amount, to_muxed_id}. Null for any other shape. */
function transferData(data: xdr.ScVal): { amount: bigint; toMuxedId: string | null } | null {
  const value = scValToNative(data) as unknown;
  if (typeof value === 'bigint') return { amount: value, toMuxedId: null };
  if (!value || typeof value !== 'object') return null;
  const { amount, to_muxed_id: id } = value as { amount?: unknown; to_muxed_id?: unknown };
  if (typeof amount !== 'bigint') return null;
  return { amount, toMuxedId: data.type === 'scvMap' && typeof id === 'bigint' && isU64(data, 'to_muxed_id') ? id.toString() : null };
}

/** The map entry `key` is a u64 (a muxed id), not a text or hash memo carried in the same field. */
function isU64(map: xdr.ScVal, key: string): boolean {
  const entries = (map as Extract<xdr.ScVal, { type: 'scvMap' }>).map ?? [];
  return entries.some((e) => e.key.type === 'scvSymbol' && scValToNative(e.key) === key && e.val.type === 'scvU64');
}

function contractEvents(meta: xdr.TransactionMeta): { opIndex: number; event: xdr.ContractEvent }[] {
  // v4 (protocol 23+, CAP-67): events per operation; v3: the one invokeHostFunction's, in sorobanMeta
  if (meta.type === 'v4') return meta.v4.operations.flatMap((op, opIndex) => op.events.map((event) => ({ opIndex, event })));
  if (meta.type === 'v3') return (meta.v3.sorobanMeta?.events ?? []).map((event) => ({ opIndex: 0, event }));
  return [];
}

/**
 * Who a `transfer` or `mint` moves value from and to, by its topics: ["transfer", from, to,
 * asset name]; a mint ["mint", to, asset name] (CAP-67), or before protocol 23 ["mint", admin,
 * to, asset name]. Null for any other event, or a malformed one.
 */
function parties(topics: xdr.ScVal[]): { kind: 'transfer' | 'mint'; from: string | null; to: xdr.ScVal } | null {
  if (topics[0]?.type !== 'scvSymbol') return null;
  const name = scValToNative(topics[0]) as string;
  const address = (v: xdr.ScVal | undefined): v is xdr.ScVal => v?.type === 'scvAddress';
  if (name === 'transfer' && topics.length >= 3 && address(topics[1]) && address(topics[2])) {
    return { kind: 'transfer', from: scValToNative(topics[1]) as string, to: topics[2] };
  }
  if (name !== 'mint') return null;
  const to = topics.length === 3 ? topics[1] : topics.length === 4 ? topics[2] : undefined;
  return address(to) ? { kind: 'mint', from: null, to } : null;
}

/**
 * The `transfer` and `mint` events of a transaction's meta (getTransactions' resultMetaXdr).
 * Anything else, or a malformed one, is skipped.
 */
export function transferEvents(resultMetaXdr: string): TransferEvent[] {
  const out: TransferEvent[] = [];
  for (const { opIndex, event } of contractEvents(xdr.TransactionMeta.fromXdr(resultMetaXdr, 'base64'))) {
    if (event.type.name !== 'contract' || !event.contractId || event.body.type !== 'v0') continue;
    const { topics, data } = event.body.v0;
    const who = parties(topics);
    const moved = who && transferData(data);
    if (!who || !moved || moved.amount <= 0n) continue;
    const to = scValToNative(who.to) as string;
    // CAP-67 names the base account in the topic and the id in the data; an M… topic is read the same way
    const muxed = to.startsWith('M') ? MuxedAccount.fromAddress(to, '0') : null;
    out.push({
      kind: who.kind, opIndex, contractId: StrKey.encodeContract(Buffer.from(event.contractId.toBytes())), from: who.from,
      ...moved, to: muxed ? muxed.baseAccount().accountId() : to, toMuxedId: muxed ? muxed.id() : moved.toMuxedId,
    });
  }
  return out;
}
