/** getLedgers, and the LedgerCloseMeta it and getLatestLedger serve. */
import { xdr } from '@stellar/stellar-sdk';
import type { HorizonLedger } from '../shared/horizon-types.js';
import type { SandboxLedger } from '../ledger.js';
import { base64Format, INVALID_REQUEST, invalidParams, RpcError, stringParam, uint32Param } from './errors.js';
import { resultMetaXdr } from './meta.js';
import { ledgerRange } from './range.js';

/** stellar-rpc's defaults (--max-ledgers-limit, --default-ledgers-limit). */
export const MAX_LEDGERS_LIMIT = 200;
export const DEFAULT_LEDGERS_LIMIT = 50;

const b64 = (v: { toXdr(): Uint8Array }) => Buffer.from(v.toXdr()).toString('base64');

/** getLedgers' headerXdr: a LedgerHeaderHistoryEntry, the stored header with its hash. */
function headerEntry(l: HorizonLedger): xdr.LedgerHeaderHistoryEntry {
  return new xdr.LedgerHeaderHistoryEntry({
    hash: Buffer.from(l.hash, 'hex'), header: xdr.LedgerHeader.fromXdr(l.header_xdr, 'base64'), ext: xdr.LedgerHeaderHistoryEntryExt.v0(),
  });
}

/**
 * A ledger's LedgerCloseMeta: v0 (a classic TransactionSet), the ledger's transactions in
 * application order, each with its result and the sandbox's minimal TransactionMeta (meta.ts);
 * no fee changes, upgrades or SCP messages (the sandbox keeps none). stellar-core writes v1 with
 * a generalized transaction set for this protocol.
 */
export async function closeMetaXdr(ledger: SandboxLedger, l: HorizonLedger): Promise<string> {
  const txs = await ledger.listTransactions({ ledger: l.sequence, includeFailed: true }, { limit: 10_000, order: 'asc' });
  const header = headerEntry(l);
  return b64(xdr.LedgerCloseMeta.v0(new xdr.LedgerCloseMetaV0({
    ledgerHeader: header,
    txSet: new xdr.TransactionSet({
      previousLedgerHash: header.header.previousLedgerHash,
      txs: txs.map((t) => xdr.TransactionEnvelope.fromXdr(t.envelope_xdr, 'base64')),
    }),
    txProcessing: await Promise.all(txs.map(async (t) => new xdr.TransactionResultMeta({
      result: new xdr.TransactionResultPair({ transactionHash: Buffer.from(t.hash, 'hex'), result: xdr.TransactionResult.fromXdr(t.result_xdr, 'base64') }),
      feeProcessing: [],
      txApplyProcessing: xdr.TransactionMeta.fromXdr(await resultMetaXdr(ledger.store, t, ledger.passphrase), 'base64'),
    }))),
    upgradesProcessing: [],
    scpInfo: [],
  })));
}

export async function getLedgers(ledger: SandboxLedger, params: Record<string, unknown>) {
  base64Format(params);
  const startLedger = uint32Param(params, 'startLedger') ?? 0;
  const p = params.pagination;
  if (p !== undefined && p !== null && (typeof p !== 'object' || Array.isArray(p))) {
    throw invalidParams('invalid parameters: pagination must be an object { cursor?, limit? }');
  }
  const page = (p ?? {}) as Record<string, unknown>;
  const cursor = stringParam(page, 'cursor') || undefined;
  const limitParam = uint32Param(page, 'limit') || undefined;
  const range = await ledgerRange(ledger);
  const within = (seq: number) => seq >= range.oldest.sequence && seq <= range.latest.sequence;
  if (cursor !== undefined && startLedger !== 0) throw new RpcError(INVALID_REQUEST, 'startLedger and cursor cannot both be set');
  if (limitParam !== undefined && limitParam > MAX_LEDGERS_LIMIT) throw new RpcError(INVALID_REQUEST, `limit must not exceed ${MAX_LEDGERS_LIMIT}`);
  let start: number;
  if (cursor !== undefined) {
    if (!/^\d+$/.test(cursor) || Number(cursor) > 0xffffffff) {
      throw invalidParams(`strconv.ParseUint: parsing ${JSON.stringify(cursor)}: invalid syntax (the cursor is a ledger sequence)`);
    }
    start = Number(cursor) + 1;
    // -32602 here, as stellar-rpc's initializePagination answers (its request.Validate answers -32600)
    if (!within(start)) {
      throw invalidParams(
        `cursor ('${cursor}') must be between the oldest ledger: ${range.oldest.sequence} and the latest ledger: ${range.latest.sequence} for this rpc instance`);
    }
  } else {
    if (!within(startLedger)) {
      throw new RpcError(INVALID_REQUEST,
        `start ledger must be between the oldest ledger: ${range.oldest.sequence} and the latest ledger: ${range.latest.sequence} for this rpc instance`);
    }
    start = startLedger;
  }
  const limit = limitParam ?? DEFAULT_LEDGERS_LIMIT;
  const rows = (await ledger.listLedgers({ cursor: (BigInt(start) << 32n) - 1n, limit, order: 'asc' }))
    .filter((l) => l.sequence <= range.latest.sequence);
  const ledgers = [];
  for (const l of rows) {
    ledgers.push({
      hash: l.hash,
      sequence: l.sequence,
      ledgerCloseTime: String(Math.floor(Date.parse(l.closed_at) / 1000)),
      headerXdr: b64(headerEntry(l)),
      metadataXdr: await closeMetaXdr(ledger, l),
    });
  }
  return {
    ledgers,
    latestLedger: range.latest.sequence,
    latestLedgerCloseTime: range.latest.closeTime,
    oldestLedger: range.oldest.sequence,
    oldestLedgerCloseTime: range.oldest.closeTime,
    cursor: String(ledgers.at(-1)?.sequence ?? start - 1),
  };
}
