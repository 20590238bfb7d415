/** getTransaction, getTransactions and sendTransaction, in stellar-rpc's shapes (protocols/rpc). */
import { xdr } from '@stellar/stellar-sdk';
import type { HorizonTransaction } from '../shared/horizon-types.js';
import type { SandboxLedger } from '../ledger.js';
import {
  base64Format, INVALID_REQUEST, invalidParams, RpcError, stringParam, uint32Param,
} from './errors.js';
import { eventsJson, metaXdr, transactionEvents } from './meta.js';
import { ledgerRange } from './range.js';

/** stellar-rpc's defaults (--max-transactions-limit, --default-transactions-limit). */
export const MAX_TRANSACTIONS_LIMIT = 200;
export const DEFAULT_TRANSACTIONS_LIMIT = 10;

const toid = (ledger: number, tx: number, op: number) => (BigInt(ledger) << 32n) | (BigInt(tx) << 12n) | BigInt(op);

/** A transaction's 1-based position in its ledger, from its paging token (a TOID). */
function applicationOrder(t: HorizonTransaction): number {
  return Number((BigInt(t.paging_token) >> 12n) & 0xfffffn);
}

const closeTime = (t: HorizonTransaction) => Math.floor(Date.parse(t.created_at) / 1000);

/** TransactionDetails: the fields getTransaction and getTransactions share, in stellar-rpc's order. */
async function details(ledger: SandboxLedger, t: HorizonTransaction) {
  const events = await transactionEvents(ledger.store, t, ledger.passphrase);
  return {
    status: t.successful ? 'SUCCESS' : 'FAILED',
    txHash: t.hash,
    applicationOrder: applicationOrder(t),
    feeBump: t.fee_bump_transaction !== undefined,
    envelopeXdr: t.envelope_xdr,
    resultXdr: t.result_xdr,
    resultMetaXdr: metaXdr(t, ledger.passphrase, events),
    events: eventsJson(events),
    ledger: t.ledger,
  };
}

export async function getTransaction(ledger: SandboxLedger, params: Record<string, unknown>) {
  base64Format(params);
  const hash = stringParam(params, 'hash', true);
  if (hash.length !== 64) throw invalidParams(`unexpected hash length (${hash.length})`);
  if (!/^[0-9a-fA-F]{64}$/.test(hash)) throw invalidParams('incorrect hash: encoding/hex: invalid byte');
  const t = await ledger.getTransaction(hash.toLowerCase());
  const range = await ledgerRange(ledger);
  const head = {
    latestLedger: range.latest.sequence,
    // getTransaction's close times are strings (stellar-rpc's `json:",string"`), getTransactions' numbers
    latestLedgerCloseTime: String(range.latest.closeTime),
    oldestLedger: range.oldest.sequence,
    oldestLedgerCloseTime: String(range.oldest.closeTime),
  };
  // Go's zero values: stellar-rpc's TransactionDetails leaves out only the XDR fields when not found
  if (!t) return { ...head, status: 'NOT_FOUND', txHash: hash, applicationOrder: 0, feeBump: false, events: {}, ledger: 0, createdAt: '0' };
  return { ...head, ...(await details(ledger, t)), createdAt: String(closeTime(t)) };
}

function pagination(params: Record<string, unknown>): { cursor?: string; limit?: number } {
  const p = params.pagination;
  if (p === undefined || p === null) return {};
  if (typeof p !== 'object' || Array.isArray(p)) throw invalidParams('invalid parameters: pagination must be an object { cursor?, limit? }');
  const o = p as Record<string, unknown>;
  const cursor = stringParam(o, 'cursor');
  const limit = uint32Param(o, 'limit');
  return { ...(cursor ? { cursor } : {}), ...(limit ? { limit } : {}) };
}

/**
 * getTransactions: from startLedger, or after pagination.cursor (the TOID of the last transaction
 * a page returned). Range checks answer -32600 (Invalid Request) as stellar-rpc's request.IsValid
 * does; malformed values -32602.
 */
export async function getTransactions(ledger: SandboxLedger, params: Record<string, unknown>) {
  base64Format(params);
  const startLedger = uint32Param(params, 'startLedger') ?? 0;
  const page = pagination(params);
  const range = await ledgerRange(ledger);
  if (page.cursor !== undefined && startLedger !== 0) throw new RpcError(INVALID_REQUEST, 'startLedger and cursor cannot both be set');
  if (page.cursor === undefined && (startLedger < range.oldest.sequence || startLedger > range.latest.sequence)) {
    throw new RpcError(INVALID_REQUEST,
      `start ledger must be between the oldest ledger: ${range.oldest.sequence} and the latest ledger: ${range.latest.sequence} for this rpc instance.`);
  }
  if (page.limit !== undefined && page.limit > MAX_TRANSACTIONS_LIMIT) {
    throw new RpcError(INVALID_REQUEST, `limit must not exceed ${MAX_TRANSACTIONS_LIMIT}`);
  }
  const limit = page.limit ?? DEFAULT_TRANSACTIONS_LIMIT;
  let after: bigint;
  if (page.cursor !== undefined) {
    if (!/^-?\d+$/.test(page.cursor)) throw invalidParams(`strconv.ParseInt: parsing ${JSON.stringify(page.cursor)}: invalid syntax`);
    after = BigInt(page.cursor);
    if (after < 0n) throw invalidParams('cursor ledger sequence cannot be negative');
  } else {
    after = toid(startLedger, 0, 0) - 1n;
  }
  // Only what has closed: a clocked ledger may be applying the next one now.
  const upTo = toid(range.latest.sequence + 1, 0, 0);
  const found = (await ledger.listTransactions({ includeFailed: true }, { cursor: after, limit, order: 'asc' }))
    .filter((t) => BigInt(t.paging_token) < upTo);
  const transactions = [];
  for (const t of found) transactions.push({ ...(await details(ledger, t)), createdAt: closeTime(t) });
  // stellar-rpc's cursor: the last transaction returned on a full page; else the end of the range
  // it read (the latest ledger, at the last transaction it returned from that ledger, or 0)
  const last = found.at(-1);
  const cursor = found.length >= limit && last ? BigInt(last.paging_token) + 1n
    : toid(range.latest.sequence, last && last.ledger === range.latest.sequence ? applicationOrder(last) : 0, 1);
  return {
    transactions,
    latestLedger: range.latest.sequence,
    latestLedgerCloseTimestamp: range.latest.closeTime,
    oldestLedger: range.oldest.sequence,
    oldestLedgerCloseTimestamp: range.oldest.closeTime,
    cursor: cursor.toString(),
  };
}

/** sendTransaction: through the ledger's async submit (Horizon's /transactions_async). */
export async function sendTransaction(ledger: SandboxLedger, params: Record<string, unknown>) {
  base64Format(params);
  const envelope = stringParam(params, 'transaction', true);
  try {
    xdr.TransactionEnvelope.fromXDR(envelope, 'base64');
  } catch {
    throw invalidParams('invalid_xdr');
  }
  const range = await ledgerRange(ledger);
  const out = await ledger.submitAsync(envelope);
  if (out.hash === '') throw invalidParams('invalid_hash');
  return {
    ...(out.status === 'ERROR' && out.errorResultXdr ? { errorResultXdr: out.errorResultXdr } : {}),
    status: out.status,
    hash: out.hash,
    latestLedger: range.latest.sequence,
    latestLedgerCloseTime: String(range.latest.closeTime),
  };
}
