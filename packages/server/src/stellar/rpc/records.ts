/**
 * A transaction as Stellar RPC returns it (getTransactions, getTransaction: base64 XDR) → the
 * payment records Horizon would have ingested from it, so one observer reads either source:
 * classic payment operations from the envelope, and each contract invocation's SAC `transfer`s
 * from the meta's events, as Horizon's invoke_host_function record with asset_balance_changes. Ids
 * are Horizon's operation ids (TOID: ledger << 32 | application order << 12 | index + 1): a
 * payment keeps its id whichever API observed it.
 */
import { Asset, FeeBumpTransaction, TransactionBuilder, extractBaseAddress, type Memo, type OperationRecord, type Transaction } from '@stellar/stellar-sdk';
import { fromStroops } from '../../lib/money.js';
import { fromSdkAsset, horizonAssetFields, toSdkAsset } from '../assets.js';
import type { AssetRef } from '../assets.js';
import type { HorizonAssetBalanceChange, HorizonPaymentRecord, HorizonTransaction } from '../horizon-types.js';
import { toMuxedFields } from '../muxed.js';
import { feeCharged, mergedAmount, strictSendReceived, transferEvents, type TransferEvent } from './xdr-read.js';

/** getTransactions' / getTransaction's fields this adapter reads (stellar-rpc's TransactionInfo, xdr format). */
export interface RpcTransaction {
  status: 'SUCCESS' | 'FAILED' | 'NOT_FOUND';
  txHash: string;
  ledger: number;
  /** Unix seconds (a number; stellar-rpc sends `createdAt` as an integer) */
  createdAt: number | string;
  applicationOrder: number;
  feeBump: boolean;
  envelopeXdr: string;
  resultXdr: string;
  /** TransactionMeta: the Soroban events (`transfer`s of invocations) are read from it */
  resultMetaXdr?: string;
}

export const toid = (ledger: number, order: number, index: number): bigint => (BigInt(ledger) << 32n) | (BigInt(order) << 12n) | BigInt(index);

const base = (address: string) => (address.startsWith('M') ? extractBaseAddress(address) : address);

function memoFields(memo: Memo): Pick<HorizonTransaction, 'memo_type' | 'memo'> {
  const type = memo.type as HorizonTransaction['memo_type'];
  if (type === 'none' || memo.value === null) return { memo_type: 'none' };
  // Horizon: text as text, id as decimal, hash and return as base64
  const value = memo.value;
  const text = typeof value === 'string' ? value : type === 'text' ? Buffer.from(value).toString('utf8') : Buffer.from(value).toString('base64');
  return { memo_type: type, memo: text };
}

export function decodeEnvelope(envelopeXdr: string, passphrase: string): { tx: Transaction; feeSource: string } {
  const parsed = TransactionBuilder.fromXDR(envelopeXdr, passphrase);
  if (parsed instanceof FeeBumpTransaction) return { tx: parsed.innerTransaction, feeSource: base(parsed.feeSource) };
  return { tx: parsed, feeSource: base(parsed.source) };
}

/** The transaction as Horizon joins it to a payment record (what the observer reads of it: ledger, memo). */
export function transactionOf(t: RpcTransaction, passphrase: string, decoded = decodeEnvelope(t.envelopeXdr, passphrase)): HorizonTransaction {
  const { tx, feeSource } = decoded;
  const createdAt = new Date(Number(t.createdAt) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const id = toid(t.ledger, t.applicationOrder, 0).toString();
  return {
    id: t.txHash, paging_token: id, successful: t.status === 'SUCCESS', hash: t.txHash, ledger: t.ledger, created_at: createdAt,
    source_account: base(tx.source), source_account_sequence: tx.sequence, fee_account: feeSource, fee_charged: feeCharged(t.resultXdr).toString(),
    max_fee: tx.fee, operation_count: tx.operations.length, envelope_xdr: t.envelopeXdr, result_xdr: t.resultXdr,
    ...memoFields(tx.memo),
  } as HorizonTransaction;
}

type Head = Pick<HorizonPaymentRecord, 'id' | 'paging_token' | 'transaction_successful' | 'source_account' | 'created_at' | 'transaction_hash' | 'transaction'>;

function paymentRecord(op: OperationRecord, head: Head, t: RpcTransaction, index: number): HorizonPaymentRecord | null {
  const from = head.source_account;
  switch (op.type) {
    case 'payment':
      return { ...head, type: 'payment', type_i: 1, from, to: base(op.destination), ...toMuxedFields(op.destination), amount: op.amount, ...horizonAssetFields(fromSdkAsset(op.asset)) } as HorizonPaymentRecord;
    case 'pathPaymentStrictReceive':
      return {
        ...head, type: 'path_payment_strict_receive', type_i: 2, from, to: base(op.destination), ...toMuxedFields(op.destination), amount: op.destAmount, ...horizonAssetFields(fromSdkAsset(op.destAsset)),
        // what was actually sent is in the offers crossed: source_max bounds it
        source_amount: op.sendMax, source_max: op.sendMax, path: op.path.map((a: Asset) => horizonAssetFields(fromSdkAsset(a))),
        ...horizonAssetFields(fromSdkAsset(op.sendAsset), 'source_'),
      } as unknown as HorizonPaymentRecord;
    case 'pathPaymentStrictSend':
      return {
        ...head, type: 'path_payment_strict_send', type_i: 13, from, to: base(op.destination), ...toMuxedFields(op.destination),
        // the amount actually RECEIVED is the result's, never destMin
        amount: fromStroops(strictSendReceived(t.resultXdr, index)), ...horizonAssetFields(fromSdkAsset(op.destAsset)),
        source_amount: op.sendAmount, destination_min: op.destMin, path: op.path.map((a: Asset) => horizonAssetFields(fromSdkAsset(a))),
        ...horizonAssetFields(fromSdkAsset(op.sendAsset), 'source_'),
      } as unknown as HorizonPaymentRecord;
    case 'createAccount':
      return { ...head, type: 'create_account', type_i: 0, funder: from, account: op.destination, starting_balance: op.startingBalance } as HorizonPaymentRecord;
    case 'accountMerge':
      return { ...head, type: 'account_merge', type_i: 8, account: from, into: base(op.destination), amount: fromStroops(mergedAmount(t.resultXdr, index)) } as HorizonPaymentRecord;
    default:
      return null;
  }
}

/** The Stellar Asset Contracts Fundkit accepts money through: contract id (C…) → asset. */
export type SacIndex = ReadonlyMap<string, AssetRef>;

export function sacIndex(assets: readonly AssetRef[], passphrase: string): SacIndex {
  return new Map(assets.map((a) => [toSdkAsset(a).contractId(passphrase), a]));
}

/**
 * An invocation's `transfer`s as Horizon's balance changes. Only events of a supported asset's
 * SAC count: any contract can emit a `transfer` event naming USDC.
 */
function balanceChanges(events: TransferEvent[], sacs: SacIndex): HorizonAssetBalanceChange[] {
  return events.flatMap((e) => {
    const asset = sacs.get(e.contractId);
    if (!asset) return [];
    // Horizon's mint names no `from` (the issuer minted)
    const change = { ...horizonAssetFields(asset), type: e.kind, ...(e.from ? { from: e.from } : {}), to: e.to, amount: fromStroops(e.amount) } as HorizonAssetBalanceChange;
    return [e.toMuxedId === null ? change : { ...change, destination_muxed_id: e.toMuxedId, destination_muxed_id_type: 'uint64' as const }];
  });
}

/** The payment-type operations of a SUCCESSFUL transaction, as Horizon's /payments records (joined with the transaction). */
export function paymentRecords(t: RpcTransaction, passphrase: string, sacs: SacIndex = new Map()): HorizonPaymentRecord[] {
  if (t.status !== 'SUCCESS') return [];
  // decoded once: a ledger of the instant sandbox carries a batch of deposit accounts' creations
  const decoded = decodeEnvelope(t.envelopeXdr, passphrase);
  const { tx } = decoded;
  const transaction = transactionOf(t, passphrase, decoded);
  const records: HorizonPaymentRecord[] = [];
  // only invocations' events: a classic operation's CAP-67 events repeat what its record says
  const invokes = tx.operations.some((op) => op.type === 'invokeHostFunction') && t.resultMetaXdr ? transferEvents(t.resultMetaXdr) : [];
  tx.operations.forEach((op, index) => {
    const id = toid(t.ledger, t.applicationOrder, index + 1).toString();
    const head: Head = {
      id, paging_token: id, transaction_successful: true, source_account: base(op.source ?? tx.source), created_at: transaction.created_at,
      transaction_hash: t.txHash, transaction,
    };
    if (op.type === 'invokeHostFunction') {
      const changes = balanceChanges(invokes.filter((e) => e.opIndex === index), sacs);
      if (changes.length > 0) records.push({ ...head, type: 'invoke_host_function', type_i: 24, function: 'HostFunctionTypeHostFunctionTypeInvokeContract', asset_balance_changes: changes });
      return;
    }
    const record = paymentRecord(op, head, t, index);
    if (record) records.push(record);
  });
  return records;
}
