/**
 * Closed ledgers as Horizon's /ledgers serves them. Each close writes a real LedgerHeader (XDR)
 * chained to the previous one by hash, so explorers and SDKs that decode `header_xdr` or follow
 * `prev_hash` see a consistent chain; transaction and operation counts are added as they apply.
 */
import { randomBytes } from 'node:crypto';
import { hash as sha256, xdr } from '@stellar/stellar-sdk';
import { fromStroops } from './shared/money.js';
import { prepared } from './sql/sql.js';
import type { HorizonLedger } from './shared/horizon-types.js';
import { BASE_RESERVE } from './accounts.js';
import type { SandboxStore } from './store.js';
import { BASE_FEE } from './validate.js';

/** 100 billion XLM, the network's fixed supply since inflation ended. */
const TOTAL_COINS = 1_000_000_000_000_000_000n;
/**
 * The protocol the sandbox reports (Horizon root) and writes (ledgerVersion in every header): the
 * one testnet and pubnet run. Source: stellar/stellar-docs, docs/networks/software-versions.mdx at
 * commit 6fc5ae43ef90b7a4550a662fb579b6b29318c303 (2026-08-21): "Protocol 27 (Testnet, June 18,
 * 2026)" and "Protocol 27 (Mainnet, July 8, 2026)" (stellar-core v27.0.0 activates it); the next,
 * "Protocol 28 (Testnet, TBD)", had no date there. Newer than that snapshot was not checked.
 * Only the number moved from 22: whether protocols 23..27 changed a classic-operation rule the
 * sandbox models was not reviewed (see SDK17-MIGRATION.md).
 */
export const PROTOCOL_VERSION = 27;
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
    ext: xdr.LedgerHeaderExt.v0(),
  });
}

const LAST_LEDGER = prepared<Pick<LedgerRow, 'seq' | 'hash' | 'fees'>>((k) =>
  k.selectFrom('sbx_ledgers').select(['seq', 'hash', 'fees']).orderBy('seq', 'desc').limit(1));

const INSERT_LEDGER = prepared<never, Pick<LedgerRow, 'seq' | 'hash' | 'prev_hash' | 'closed_at' | 'header_xdr' | 'fees'>>((k, p) =>
  k.insertInto('sbx_ledgers').values({
    seq: p('seq'), hash: p('hash'), prev_hash: p('prev_hash'), closed_at: p('closed_at'), header_xdr: p('header_xdr'), fees: p('fees'),
  }));

const LEDGER_FEES = prepared<{ fees: string }, { seq: number }>((k, p) => k.selectFrom('sbx_ledgers').select('fees').where('seq', '=', p('seq')));

const COUNT_TRANSACTION = prepared<never, { seq: number; ok: number; failed: number; ops: number; txSetOps: number; fees: string }>((k, p) =>
  k.updateTable('sbx_ledgers').set((eb) => ({
    tx_ok: eb('tx_ok', '+', p('ok')), tx_failed: eb('tx_failed', '+', p('failed')), ops: eb('ops', '+', p('ops')),
    tx_set_ops: eb('tx_set_ops', '+', p('txSetOps')), fees: p('fees'),
  })).where('seq', '=', p('seq')));

const GET_LEDGER = prepared<LedgerRow, { seq: number }>((k, p) => k.selectFrom('sbx_ledgers').selectAll().where('seq', '=', p('seq')));

/** Ledgers after (asc) or before (desc) a sequence. */
const LEDGERS = Object.fromEntries((['asc', 'desc'] as const).map((order) => [order, prepared<LedgerRow, { seq: number; limit: number }>((k, p) =>
  k.selectFrom('sbx_ledgers').selectAll().where('seq', order === 'asc' ? '>' : '<', p('seq')).orderBy('seq', order).limit(p('limit')))]));

const ELDER_LEDGER = prepared<{ seq: number | null }>((k) => k.selectFrom('sbx_ledgers').select((eb) => eb.fn.min('seq').as('seq')));

/** Records ledger `seq` as closed at `closeTime`; call inside the close's SQLite transaction. */
export async function openLedger(store: SandboxStore, seq: number, closeTime: number, closedAt: string): Promise<void> {
  // The newest recorded ledger carries the fee pool; it chains by hash only if it is seq - 1
  // (sandbox files from before ledgers were recorded start with a gap). The first follows a genesis
  // of random hash: each chain is its own (the server tells chains apart by their oldest ledger).
  const last = await store.sql.get(LAST_LEDGER);
  const fees = BigInt(last?.fees ?? '0');
  const prevHash = last?.seq === seq - 1 ? last.hash : (last ? ZERO_HASH : randomBytes(32)).toString('hex');
  const raw = Buffer.from(header(seq, Buffer.from(prevHash, 'hex'), closeTime, fees).toXdr());
  await store.sql.run(INSERT_LEDGER, {
    seq, hash: Buffer.from(sha256(raw)).toString('hex'), prev_hash: prevHash, closed_at: closedAt, header_xdr: raw.toString('base64'), fees: fees.toString(),
  });
}

/** Counts one applied transaction (and its fee, which goes to the fee pool) in its ledger. */
export async function countTransaction(store: SandboxStore, seq: number, successful: boolean, ops: number, fee: bigint): Promise<void> {
  const row = await store.sql.get(LEDGER_FEES, { seq });
  if (!row) return;
  await store.sql.run(COUNT_TRANSACTION, {
    seq, ok: successful ? 1 : 0, failed: successful ? 0 : 1, ops: successful ? ops : 0, txSetOps: ops, fees: (BigInt(row.fees) + fee).toString(),
  });
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

export async function getLedger(store: SandboxStore, seq: number): Promise<HorizonLedger | undefined> {
  const row = await store.sql.get(GET_LEDGER, { seq });
  return row && resource(row);
}

/** Ledgers after (asc) or before (desc) the cursor, a ledger paging token (seq << 32). */
export async function listLedgers(store: SandboxStore, p: { cursor?: bigint; limit: number; order: 'asc' | 'desc' }): Promise<HorizonLedger[]> {
  const asc = p.order === 'asc';
  const seq = p.cursor === undefined ? (asc ? -1 : Number.MAX_SAFE_INTEGER) : Number(p.cursor >> 32n);
  const rows = await store.sql.all(LEDGERS[p.order]!, { seq, limit: p.limit });
  return rows.map(resource);
}

/** The oldest ledger history holds (Horizon's history_elder_ledger). */
export async function elderLedger(store: SandboxStore): Promise<number> {
  return (await store.sql.get(ELDER_LEDGER))!.seq ?? 1;
}
