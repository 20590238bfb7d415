/**
 * Closed ledgers as Horizon's /ledgers serves them. Each close writes a real LedgerHeader (XDR)
 * chained to the previous one by hash, so explorers and SDKs that decode `header_xdr` or follow
 * `prev_hash` see a consistent chain; transaction and operation counts are added as they apply.
 */
import { hash as sha256, xdr } from '@stellar/stellar-sdk';
import { fromStroops } from '../../lib/money.js';
import type { HorizonLedger } from '../horizon-types.js';
import { BASE_RESERVE } from './accounts.js';
import type { SandboxStore } from './store.js';
import { BASE_FEE } from './validate.js';

/** 100 billion XLM, the network's fixed supply since inflation ended. */
const TOTAL_COINS = 1_000_000_000_000_000_000n;
export const PROTOCOL_VERSION = 22;
/** Transactions' operations one ledger takes (Horizon's max_tx_set_size on pubnet). */
export const MAX_TX_SET_SIZE = 1000;

const ZERO_HASH = Buffer.alloc(32);

interface LedgerRow {
  seq: number;
  hash: string;
  prev_hash: string;
  closed_at: string;
  header_xdr: string;
  tx_ok: number;
  tx_failed: number;
  ops: number;
  tx_set_ops: number;
  fees: string;
}

function header(seq: number, prevHash: Buffer, closeTime: number, feePool: bigint): xdr.LedgerHeader {
  return new xdr.LedgerHeader({
    ledgerVersion: PROTOCOL_VERSION,
    previousLedgerHash: prevHash,
    scpValue: new xdr.StellarValue({
      txSetHash: ZERO_HASH, closeTime: xdr.Uint64.fromString(String(closeTime)), upgrades: [],
      ext: xdr.StellarValueExt.stellarValueBasic(),
    }),
    txSetResultHash: ZERO_HASH,
    bucketListHash: ZERO_HASH,
    ledgerSeq: seq,
    totalCoins: xdr.Int64.fromString(TOTAL_COINS.toString()),
    feePool: xdr.Int64.fromString(feePool.toString()),
    inflationSeq: 0,
    idPool: xdr.Uint64.fromString('0'),
    baseFee: Number(BASE_FEE),
    baseReserve: Number(BASE_RESERVE),
    maxTxSetSize: MAX_TX_SET_SIZE,
    skipList: [ZERO_HASH, ZERO_HASH, ZERO_HASH, ZERO_HASH],
    ext: new xdr.LedgerHeaderExt(0),
  });
}

/** Records ledger `seq` as closed at `closeTime`; call inside the close's SQLite transaction. */
export function openLedger(store: SandboxStore, seq: number, closeTime: number, closedAt: string): void {
  // The newest recorded ledger carries the fee pool; it chains by hash only if it is seq - 1
  // (sandbox files from before ledgers were recorded start with a gap).
  const last = store.db.prepare('SELECT seq, hash, fees FROM sbx_ledgers ORDER BY seq DESC LIMIT 1').get() as
    | { seq: number; hash: string; fees: string }
    | undefined;
  const fees = BigInt(last?.fees ?? '0');
  const prevHash = last?.seq === seq - 1 ? last.hash : ZERO_HASH.toString('hex');
  const raw = header(seq, Buffer.from(prevHash, 'hex'), closeTime, fees).toXDR();
  store.db
    .prepare('INSERT INTO sbx_ledgers (seq, hash, prev_hash, closed_at, header_xdr, fees) VALUES (?, ?, ?, ?, ?, ?)')
    .run(seq, sha256(raw).toString('hex'), prevHash, closedAt, raw.toString('base64'), fees.toString());
}

/** Counts one applied transaction (and its fee, which goes to the fee pool) in its ledger. */
export function countTransaction(store: SandboxStore, seq: number, successful: boolean, ops: number, fee: bigint): void {
  const row = store.db.prepare('SELECT fees FROM sbx_ledgers WHERE seq = ?').get(seq) as { fees: string } | undefined;
  if (!row) return;
  store.db
    .prepare(
      `UPDATE sbx_ledgers SET tx_ok = tx_ok + ?, tx_failed = tx_failed + ?, ops = ops + ?, tx_set_ops = tx_set_ops + ?,
       fees = ? WHERE seq = ?`,
    )
    .run(successful ? 1 : 0, successful ? 0 : 1, successful ? ops : 0, ops, (BigInt(row.fees) + fee).toString(), seq);
}

function resource(r: LedgerRow): HorizonLedger {
  const seq = r.seq;
  return {
    id: r.hash,
    paging_token: (BigInt(seq) << 32n).toString(),
    hash: r.hash,
    ...(seq > 1 ? { prev_hash: r.prev_hash } : {}),
    sequence: seq,
    successful_transaction_count: r.tx_ok,
    failed_transaction_count: r.tx_failed,
    operation_count: r.ops,
    tx_set_operation_count: r.tx_set_ops,
    closed_at: r.closed_at,
    total_coins: fromStroops(TOTAL_COINS),
    fee_pool: fromStroops(BigInt(r.fees)),
    base_fee_in_stroops: Number(BASE_FEE),
    base_reserve_in_stroops: Number(BASE_RESERVE),
    max_tx_set_size: MAX_TX_SET_SIZE,
    protocol_version: PROTOCOL_VERSION,
    header_xdr: r.header_xdr,
  };
}

export function getLedger(store: SandboxStore, seq: number): HorizonLedger | undefined {
  const row = store.db.prepare('SELECT * FROM sbx_ledgers WHERE seq = ?').get(seq) as LedgerRow | undefined;
  return row && resource(row);
}

/** Ledgers after (asc) or before (desc) the cursor, a ledger paging token (seq << 32). */
export function listLedgers(store: SandboxStore, p: { cursor?: bigint; limit: number; order: 'asc' | 'desc' }): HorizonLedger[] {
  const asc = p.order === 'asc';
  const seq = p.cursor === undefined ? (asc ? -1 : Number.MAX_SAFE_INTEGER) : Number(p.cursor >> 32n);
  const rows = store.db
    .prepare(`SELECT * FROM sbx_ledgers WHERE seq ${asc ? '>' : '<'} ? ORDER BY seq ${asc ? 'ASC' : 'DESC'} LIMIT ?`)
    .all(seq, p.limit) as LedgerRow[];
  return rows.map(resource);
}

/** The oldest ledger history holds (Horizon's history_elder_ledger). */
export function elderLedger(store: SandboxStore): number {
  const row = store.db.prepare('SELECT MIN(seq) AS seq FROM sbx_ledgers').get() as { seq: number | null };
  return row.seq ?? 1;
}
