/** Transaction and payment-record history: what Horizon would have ingested. */
import type { HorizonPaymentRecord, HorizonTransaction } from '../horizon-types.js';
import { participants } from './records.js';
import type { SandboxStore } from './store.js';

export interface HistoryQuery {
  account: string;
  /** Exclusive; a paging token. */
  cursor?: bigint;
  limit: number;
  order: 'asc' | 'desc';
  includeFailed: boolean;
}

export function insertTransaction(store: SandboxStore, t: HorizonTransaction): void {
  store.db
    .prepare('INSERT INTO sbx_transactions (hash, ledger, successful, resource) VALUES (?, ?, ?, ?)')
    .run(t.hash, t.ledger, t.successful ? 1 : 0, JSON.stringify(t));
}

export function getTransaction(store: SandboxStore, hash: string): HorizonTransaction | undefined {
  const row = store.db.prepare('SELECT resource FROM sbx_transactions WHERE hash = ?').get(hash) as
    | { resource: string }
    | undefined;
  return row && (JSON.parse(row.resource) as HorizonTransaction);
}

export function insertRecord(store: SandboxStore, r: HorizonPaymentRecord): void {
  const id = BigInt(r.id);
  store.db
    .prepare('INSERT INTO sbx_operations (id, tx_hash, successful, record) VALUES (?, ?, ?, ?)')
    .run(id, r.transaction_hash, r.transaction_successful ? 1 : 0, JSON.stringify(r));
  const link = store.db.prepare('INSERT OR IGNORE INTO sbx_op_accounts (account, op_id) VALUES (?, ?)');
  for (const account of participants(r)) link.run(account, id);
}

export function listRecords(store: SandboxStore, q: HistoryQuery): HorizonPaymentRecord[] {
  const asc = q.order === 'asc';
  const cursor = q.cursor ?? (asc ? -1n : 2n ** 63n - 1n);
  const rows = store.db
    .prepare(
      `SELECT o.record FROM sbx_op_accounts a JOIN sbx_operations o ON o.id = a.op_id
       WHERE a.account = ? AND a.op_id ${asc ? '>' : '<'} ? AND (? OR o.successful = 1)
       ORDER BY a.op_id ${asc ? 'ASC' : 'DESC'} LIMIT ?`,
    )
    .all(q.account, cursor, q.includeFailed ? 1 : 0, q.limit) as Array<{ record: string }>;
  return rows.map((r) => JSON.parse(r.record) as HorizonPaymentRecord);
}

/** The paging token of the newest record overall ("cursor=now"). */
export function latestRecordId(store: SandboxStore): bigint {
  const row = store.db.prepare('SELECT MAX(id) AS id FROM sbx_operations').safeIntegers(true).get() as {
    id: bigint | null;
  };
  return row.id ?? 0n;
}
