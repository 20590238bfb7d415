/**
 * Horizon payment operation records (fixtures/horizon/payment-op-*.json), built from the
 * operation as submitted plus what it really moved. Keys are in Horizon's order; `_links` are
 * added when rendering because they depend on the URL the client used.
 */
import type { Operation } from '@stellar/stellar-sdk';
import { fromStroops } from '../../lib/money.js';
import { fromSdkAsset, horizonAssetFields } from '../assets.js';
import type { HorizonAssetFields, HorizonPaymentRecord } from '../horizon-types.js';
import { baseAccount, stroops, type OpOutcome } from './operations/context.js';

export interface RecordBase {
  id: bigint;
  txHash: string;
  successful: boolean;
  /** The operation's source account. */
  source: string;
  createdAt: string;
}

/** Horizon operation id: ledger << 32 | tx order << 12 | op index (1-based), as TOID does. */
export function operationId(ledger: number, txOrder: number, opIndex: number): bigint {
  return (BigInt(ledger) << 32n) | (BigInt(txOrder) << 12n) | BigInt(opIndex);
}

function head(b: RecordBase, type: string, typeI: number) {
  return {
    id: b.id.toString(),
    paging_token: b.id.toString(),
    transaction_successful: b.successful,
    source_account: b.source,
    type,
    type_i: typeI,
    created_at: b.createdAt,
    transaction_hash: b.txHash,
  };
}

const amount = (s: bigint) => fromStroops(s);

function pathFields(op: Operation.PathPaymentStrictReceive | Operation.PathPaymentStrictSend): HorizonAssetFields[] {
  return op.path.map((a) => horizonAssetFields(fromSdkAsset(a)) as unknown as HorizonAssetFields);
}

/** The record for a payment-like operation, or null for other operation types. */
export function paymentRecord(op: Operation, b: RecordBase, out: OpOutcome | null): HorizonPaymentRecord | null {
  const ok = b.successful && out !== null;
  switch (op.type) {
    case 'createAccount':
      return { ...head(b, 'create_account', 0), starting_balance: amount(stroops(op.startingBalance)),
        funder: b.source, account: baseAccount(op.destination) } as HorizonPaymentRecord;
    case 'payment':
      return { ...head(b, 'payment', 1), ...horizonAssetFields(fromSdkAsset(op.asset)), from: b.source,
        to: baseAccount(op.destination), amount: amount(stroops(op.amount)) } as HorizonPaymentRecord;
    case 'pathPaymentStrictReceive':
      return { ...head(b, 'path_payment_strict_receive', 2), ...horizonAssetFields(fromSdkAsset(op.destAsset)),
        from: b.source, to: baseAccount(op.destination), amount: amount(stroops(op.destAmount)),
        path: pathFields(op), source_amount: amount(ok ? out!.sourceAmount! : 0n),
        source_max: amount(stroops(op.sendMax)), ...horizonAssetFields(fromSdkAsset(op.sendAsset), 'source_'),
      } as HorizonPaymentRecord;
    case 'pathPaymentStrictSend':
      return { ...head(b, 'path_payment_strict_send', 13), ...horizonAssetFields(fromSdkAsset(op.destAsset)),
        from: b.source, to: baseAccount(op.destination), amount: amount(ok ? out!.destAmount! : 0n),
        path: pathFields(op), source_amount: amount(stroops(op.sendAmount)),
        destination_min: amount(stroops(op.destMin)), ...horizonAssetFields(fromSdkAsset(op.sendAsset), 'source_'),
      } as HorizonPaymentRecord;
    case 'accountMerge':
      return { ...head(b, 'account_merge', 8), account: b.source, into: baseAccount(op.destination) } as HorizonPaymentRecord;
    default:
      return null;
  }
}

/** Accounts whose /payments list shows the record. */
export function participants(r: HorizonPaymentRecord): string[] {
  const all = [r.source_account];
  if (r.type === 'create_account') all.push(r.funder, r.account);
  else if (r.type === 'account_merge') all.push(r.account, r.into);
  else all.push(r.from, r.to);
  return [...new Set(all)];
}

/** Adds Horizon's per-record links for a given base URL. */
export function withLinks(r: HorizonPaymentRecord, base: string): HorizonPaymentRecord {
  const { _links: _, ...rest } = r;
  return {
    _links: {
      self: { href: `${base}/operations/${r.id}` },
      transaction: { href: `${base}/transactions/${r.transaction_hash}` },
      effects: { href: `${base}/operations/${r.id}/effects` },
      succeeds: { href: `${base}/effects?order=desc&cursor=${r.paging_token}` },
      precedes: { href: `${base}/effects?order=asc&cursor=${r.paging_token}` },
    },
    ...rest,
  } as HorizonPaymentRecord;
}
