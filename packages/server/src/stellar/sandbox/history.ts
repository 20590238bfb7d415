/**
 * What Horizon would have ingested: transactions, operations and effects, indexed by the
 * accounts that took part, in paging-token order. All SQL over history lives here.
 */
import type {
  HorizonEffect, HorizonOperationRecord, HorizonPaymentRecord, HorizonTransaction,
} from '../horizon-types.js';
import { effectIds, type EffectBody } from './effects.js';
import { isPayment, participants } from './records.js';
import type { SandboxStore } from './store.js';

const MAX_TOKEN = 2n ** 63n - 1n;

export interface Page<C> {
  /** Exclusive: records strictly after (asc) or before (desc) it. */
  cursor?: C;
  limit: number;
  order: 'asc' | 'desc';
}

/** Filters shared by /transactions, /operations, /payments and /effects lists. */
export interface HistoryFilter {
  account?: string;
  ledger?: number;
  txHash?: string;
  /** Failed transactions and their operations; Horizon leaves them out unless asked. */
  includeFailed?: boolean;
}

/** The per-account payments query the observer and the payments stream use. */
export interface HistoryQuery extends Page<bigint> {
  account: string;
  includeFailed: boolean;
}

interface Sql {
  joins: string[];
  where: string[];
  args: unknown[];
}

/** Paging tokens of a ledger's records lie in [seq << 32, (seq + 1) << 32) (TOID). */
function inLedger(sql: Sql, column: string, ledger: number | undefined): void {
  if (ledger === undefined) return;
  sql.where.push(`${column} >= ? AND ${column} < ?`);
  sql.args.push(BigInt(ledger) << 32n, BigInt(ledger + 1) << 32n);
}

function after(sql: Sql, column: string, p: Page<bigint>): void {
  const asc = p.order === 'asc';
  sql.where.push(`${column} ${asc ? '>' : '<'} ?`);
  sql.args.push(p.cursor ?? (asc ? -1n : MAX_TOKEN));
}

function run<T>(store: SandboxStore, select: string, sql: Sql, orderBy: string, p: Page<unknown>): T[] {
  const dir = p.order === 'asc' ? 'ASC' : 'DESC';
  const text = `${select} ${sql.joins.join(' ')} WHERE ${sql.where.join(' AND ')} ORDER BY ${orderBy
    .split(',').map((c) => `${c} ${dir}`).join(', ')} LIMIT ?`;
  const rows = store.db.prepare(text).all(...sql.args, p.limit) as Array<{ json: string }>;
  return rows.map((r) => JSON.parse(r.json) as T);
}

export function insertTransaction(store: SandboxStore, t: HorizonTransaction, accounts: Iterable<string>): void {
  const paging = BigInt(t.paging_token);
  store.db
    .prepare('INSERT INTO sbx_transactions (hash, ledger, successful, resource, paging) VALUES (?, ?, ?, ?, ?)')
    .run(t.hash, t.ledger, t.successful ? 1 : 0, JSON.stringify(t), paging);
  const link = store.db.prepare('INSERT OR IGNORE INTO sbx_tx_accounts (account, paging) VALUES (?, ?)');
  for (const account of accounts) link.run(account, paging);
}

export function getTransaction(store: SandboxStore, hash: string): HorizonTransaction | undefined {
  const row = store.db.prepare('SELECT resource FROM sbx_transactions WHERE hash = ?').get(hash) as
    | { resource: string }
    | undefined;
  return row && (JSON.parse(row.resource) as HorizonTransaction);
}

export function listTransactions(store: SandboxStore, f: HistoryFilter, p: Page<bigint>): HorizonTransaction[] {
  const sql: Sql = { joins: [], where: [], args: [] };
  if (f.account) {
    sql.joins.push('JOIN sbx_tx_accounts a ON a.paging = t.paging AND a.account = ?');
    sql.args.push(f.account);
  }
  after(sql, 't.paging', p);
  inLedger(sql, 't.paging', f.ledger);
  if (!f.includeFailed) sql.where.push('t.successful = 1');
  return run(store, 'SELECT t.resource AS json FROM sbx_transactions t', sql, 't.paging', p);
}

export function insertOperation(store: SandboxStore, r: HorizonOperationRecord): void {
  const id = BigInt(r.id);
  store.db
    .prepare('INSERT INTO sbx_operations (id, tx_hash, successful, record, is_payment) VALUES (?, ?, ?, ?, ?)')
    .run(id, r.transaction_hash, r.transaction_successful ? 1 : 0, JSON.stringify(r), isPayment(r) ? 1 : 0);
  const link = store.db.prepare('INSERT OR IGNORE INTO sbx_op_accounts (account, op_id) VALUES (?, ?)');
  for (const account of participants(r)) link.run(account, id);
}

export function getOperation(store: SandboxStore, id: bigint): HorizonOperationRecord | undefined {
  const row = store.db.prepare('SELECT record FROM sbx_operations WHERE id = ?').get(id) as { record: string } | undefined;
  return row && (JSON.parse(row.record) as HorizonOperationRecord);
}

export function listOperations(
  store: SandboxStore, f: HistoryFilter & { paymentsOnly?: boolean }, p: Page<bigint>,
): HorizonOperationRecord[] {
  const sql: Sql = { joins: [], where: [], args: [] };
  if (f.account) {
    sql.joins.push('JOIN sbx_op_accounts a ON a.op_id = o.id AND a.account = ?');
    sql.args.push(f.account);
  }
  after(sql, 'o.id', p);
  inLedger(sql, 'o.id', f.ledger);
  if (f.txHash) {
    sql.where.push('o.tx_hash = ?');
    sql.args.push(f.txHash);
  }
  if (f.paymentsOnly) sql.where.push('o.is_payment = 1');
  if (!f.includeFailed) sql.where.push('o.successful = 1');
  return run(store, 'SELECT o.record AS json FROM sbx_operations o', sql, 'o.id', p);
}

/** Payment records of one account (the observer's and the payments stream's query). */
export function listRecords(store: SandboxStore, q: HistoryQuery): HorizonPaymentRecord[] {
  return listOperations(store, { account: q.account, includeFailed: q.includeFailed, paymentsOnly: true }, q) as HorizonPaymentRecord[];
}

export function insertEffects(
  store: SandboxStore, opId: bigint, txHash: string, createdAt: string, effects: EffectBody[],
): void {
  const insert = store.db.prepare('INSERT INTO sbx_effects (op_id, idx, account, tx_hash, record) VALUES (?, ?, ?, ?, ?)');
  effects.forEach((e, i) => {
    const { account, type, type_i, ...fields } = e;
    const record = { ...effectIds(opId, i + 1), account, type, type_i, created_at: createdAt, ...fields };
    insert.run(opId, i + 1, account, txHash, JSON.stringify(record));
  });
}

/** An effect cursor: its operation id and 1-based order ("12884905986-2"). */
export type EffectCursor = [bigint, number];

export function listEffects(
  store: SandboxStore, f: HistoryFilter & { operation?: bigint }, p: Page<EffectCursor>,
): HorizonEffect[] {
  const asc = p.order === 'asc';
  const [op, idx] = p.cursor ?? [asc ? -1n : MAX_TOKEN, 0];
  const cmp = asc ? '>' : '<';
  const sql: Sql = { joins: [], where: [`(e.op_id ${cmp} ? OR (e.op_id = ? AND e.idx ${cmp} ?))`], args: [op, op, idx] };
  if (f.account) {
    sql.where.push('e.account = ?');
    sql.args.push(f.account);
  }
  inLedger(sql, 'e.op_id', f.ledger);
  if (f.txHash) {
    sql.where.push('e.tx_hash = ?');
    sql.args.push(f.txHash);
  }
  if (f.operation !== undefined) {
    sql.where.push('e.op_id = ?');
    sql.args.push(f.operation);
  }
  return run(store, 'SELECT e.record AS json FROM sbx_effects e', sql, 'e.op_id,e.idx', p);
}

/** Accounts by the one filter Horizon's /accounts takes; paged by account id. */
export function listAccountIds(
  store: SandboxStore, filter: { asset?: string; signer?: string; sponsor?: string }, p: Page<string>,
): string[] {
  const asc = p.order === 'asc';
  const cursor = p.cursor ?? (asc ? '' : '\uffff');
  const cmp = asc ? '>' : '<';
  const dir = asc ? 'ASC' : 'DESC';
  let sql: string;
  let args: string[];
  if (filter.asset !== undefined) {
    [sql, args] = [`SELECT account AS id FROM sbx_trustlines WHERE asset = ? AND account ${cmp} ?`, [filter.asset]];
  } else if (filter.sponsor !== undefined) {
    // Horizon: accounts the sponsor pays the reserve of, or of one of their subentries.
    sql = `SELECT id FROM (SELECT id FROM sbx_accounts WHERE sponsor = ?
           UNION SELECT account AS id FROM sbx_trustlines WHERE sponsor = ?
           UNION SELECT account AS id FROM sbx_signers WHERE sponsor = ?) WHERE id ${cmp} ?`;
    args = [filter.sponsor, filter.sponsor, filter.sponsor];
  } else {
    // Horizon's signer summary: the master key while its weight is above 0, and every signer.
    sql = `SELECT id FROM (SELECT id FROM sbx_accounts WHERE id = ? AND master_weight > 0
           UNION SELECT account AS id FROM sbx_signers WHERE key = ?) WHERE id ${cmp} ?`;
    args = [filter.signer ?? '', filter.signer ?? ''];
  }
  return store.db.prepare(`${sql} ORDER BY id ${dir} LIMIT ?`).pluck().all(...args, cursor, p.limit) as string[];
}

/** The paging token of the newest operation ("cursor=now" on payment streams). */
export function latestRecordId(store: SandboxStore): bigint {
  const row = store.db.prepare('SELECT MAX(id) AS id FROM sbx_operations').safeIntegers(true).get() as {
    id: bigint | null;
  };
  return row.id ?? 0n;
}
