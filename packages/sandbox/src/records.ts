/**
 * Horizon payment operation records (fixtures/horizon/payment-op-*.json), built from the
 * operation as submitted plus what it really moved. Keys are in Horizon's order; `_links` are
 * added when rendering because they depend on the URL the client used.
 */
import { Asset, MuxedAccount, xdr, type Operation, type OperationRecord } from '@stellar/stellar-sdk';
import { fromStroops } from './shared/money.js';
import { fromSdkAsset, horizonAssetFields } from './shared/assets.js';
import type {
  HorizonAssetFields, HorizonOperationRecord, HorizonPaymentRecord, HorizonRecordBase,
} from './shared/horizon-types.js';
import { baseAccount, stroops, type OpOutcome } from './operations/context.js';
import { setOptionsFields } from './option-records.js';
import { assetBalanceChanges } from './sac/balance-changes.js';

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

/** Horizon's `to_muxed` / `to_muxed_id` after `to` when a payment's destination is a muxed address (SEP-23). */
function toMuxedFields(destination: string): { to_muxed?: string; to_muxed_id?: string } {
  if (!destination.startsWith('M')) return {};
  return { to_muxed: destination, to_muxed_id: MuxedAccount.fromAddress(destination, '0').id() };
}

function pathFields(op: Operation.PathPaymentStrictReceive | Operation.PathPaymentStrictSend): HorizonAssetFields[] {
  return op.path.map((a) => horizonAssetFields(fromSdkAsset(a)) as unknown as HorizonAssetFields);
}

/** The record for a payment-like operation, or null for other operation types. */
export function paymentRecord(op: OperationRecord, b: RecordBase, out: OpOutcome | null): HorizonPaymentRecord | null {
  const ok = b.successful && out !== null;
  switch (op.type) {
    case 'createAccount':
      return { ...head(b, 'create_account', 0), starting_balance: amount(stroops(op.startingBalance)),
        funder: b.source, account: baseAccount(op.destination) } as HorizonPaymentRecord;
    case 'payment':
      return { ...head(b, 'payment', 1), ...horizonAssetFields(fromSdkAsset(op.asset)), from: b.source,
        to: baseAccount(op.destination), ...toMuxedFields(op.destination), amount: amount(stroops(op.amount)) } as HorizonPaymentRecord;
    case 'pathPaymentStrictReceive':
      return { ...head(b, 'path_payment_strict_receive', 2), ...horizonAssetFields(fromSdkAsset(op.destAsset)),
        from: b.source, to: baseAccount(op.destination), ...toMuxedFields(op.destination), amount: amount(stroops(op.destAmount)),
        path: pathFields(op), source_amount: amount(ok ? out!.sourceAmount! : 0n),
        source_max: amount(stroops(op.sendMax)), ...horizonAssetFields(fromSdkAsset(op.sendAsset), 'source_'),
      } as HorizonPaymentRecord;
    case 'pathPaymentStrictSend':
      return { ...head(b, 'path_payment_strict_send', 13), ...horizonAssetFields(fromSdkAsset(op.destAsset)),
        from: b.source, to: baseAccount(op.destination), ...toMuxedFields(op.destination), amount: amount(ok ? out!.destAmount! : 0n),
        path: pathFields(op), source_amount: amount(stroops(op.sendAmount)),
        destination_min: amount(stroops(op.destMin)), ...horizonAssetFields(fromSdkAsset(op.sendAsset), 'source_'),
      } as HorizonPaymentRecord;
    case 'accountMerge':
      return { ...head(b, 'account_merge', 8), account: b.source, into: baseAccount(op.destination) } as HorizonPaymentRecord;
    default:
      return null;
  }
}

/** Horizon's type_i per operation type (protocols/horizon/operations), in XDR order. */
const TYPE_I: Record<string, number> = Object.fromEntries([
  'create_account', 'payment', 'path_payment_strict_receive', 'manage_sell_offer', 'create_passive_sell_offer',
  'set_options', 'change_trust', 'allow_trust', 'account_merge', 'inflation', 'manage_data', 'bump_sequence',
  'manage_buy_offer', 'path_payment_strict_send', 'create_claimable_balance', 'claim_claimable_balance',
  'begin_sponsoring_future_reserves', 'end_sponsoring_future_reserves', 'revoke_sponsorship', 'clawback',
  'clawback_claimable_balance', 'set_trust_line_flags', 'liquidity_pool_deposit', 'liquidity_pool_withdraw',
  'invoke_host_function', 'extend_footprint_ttl', 'restore_footprint',
].map((name, i) => [name, i]));

const PAYMENT_TYPES = new Set(['create_account', 'payment', 'path_payment_strict_receive', 'path_payment_strict_send', 'account_merge']);

/**
 * Whether Horizon lists the record under /payments as well as /operations: invocations too, as
 * Horizon does, so the ledger follower hears of SAC transfers (their asset_balance_changes).
 */
export function isPayment(r: HorizonRecordBase): r is HorizonPaymentRecord {
  return PAYMENT_TYPES.has(r.type) || r.type === 'invoke_host_function';
}

const scValType = (v: xdr.ScVal) => v.type.replace(/^scv/, '');

/** Horizon's invoke_host_function fields: the call's parameters and, once applied, its balance changes. */
function invokeFields(op: Operation.InvokeHostFunction, out: OpOutcome | null) {
  const fn = op.func;
  const call = fn.type === 'hostFunctionTypeInvokeContract' ? fn.invokeContract : null;
  const parameters = call
    ? [xdr.ScVal.scvAddress(call.contractAddress), xdr.ScVal.scvSymbol(call.functionName.toString()), ...call.args]
      .map((v) => ({ value: v.toXdr('base64'), type: scValType(v) }))
    : [];
  return {
    function: `HostFunctionType${fn.type.charAt(0).toUpperCase()}${fn.type.slice(1)}`,
    parameters, address: '', salt: '',
    asset_balance_changes: out?.invocation ? assetBalanceChanges(out.invocation.events) : null,
  };
}

const snake = (camel: string) => camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function changeTrustFields(op: Operation.ChangeTrust, source: string) {
  if (!(op.line instanceof Asset)) return { asset_type: 'liquidity_pool_shares', limit: amount(stroops(op.limit)), trustor: source };
  const asset = fromSdkAsset(op.line);
  return { ...horizonAssetFields(asset), limit: amount(stroops(op.limit)), ...(asset.issuer ? { trustee: asset.issuer } : {}), trustor: source };
}

/**
 * The record of any operation: payments as above; the others in Horizon's shape for the types
 * the sandbox applies, and the common head only for types it refuses (op_not_supported).
 * `beginSponsor` is who began the sponsorship an end_sponsoring_future_reserves closes.
 */
export function operationRecord(op: OperationRecord, b: RecordBase, out: OpOutcome | null, beginSponsor?: string): HorizonOperationRecord {
  const payment = paymentRecord(op, b, out);
  if (payment) return payment;
  const type = snake(op.type);
  const base = head(b, type, TYPE_I[type] ?? -1);
  switch (op.type) {
    case 'changeTrust':
      return { ...base, ...changeTrustFields(op, b.source) };
    case 'beginSponsoringFutureReserves':
      return { ...base, sponsored_id: op.sponsoredId };
    case 'endSponsoringFutureReserves':
      return { ...base, ...(beginSponsor ? { begin_sponsor: beginSponsor } : {}) };
    case 'setOptions':
      return { ...base, ...setOptionsFields(op) };
    case 'invokeHostFunction':
      return { ...base, ...invokeFields(op, b.successful ? out : null) };
    default:
      return base;
  }
}

const PARTICIPANT_FIELDS = ['funder', 'account', 'into', 'from', 'to', 'sponsored_id'] as const;

/** Accounts whose /operations (and, for payments, /payments) lists show the record. */
export function participants(r: HorizonOperationRecord): string[] {
  const all = [r.source_account];
  const fields = r as unknown as Record<string, unknown>;
  for (const f of PARTICIPANT_FIELDS) if (typeof fields[f] === 'string') all.push(fields[f] as string);
  // an invocation's participants include whoever its balance changes moved money for (G… only)
  for (const c of (fields.asset_balance_changes ?? []) as Array<{ from: string; to: string }>) {
    for (const a of [c.from, c.to]) if (a.startsWith('G')) all.push(a);
  }
  return [...new Set(all)];
}

/** Adds Horizon's per-record links for a given base URL. */
export function withLinks<T extends HorizonRecordBase>(r: T, base: string): T {
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
  } as unknown as T;
}
