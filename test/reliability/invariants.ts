/**
 * Database invariants after any traffic (migrations 001–012): the pipeline's own checks
 * (packages/server/test/crash/invariants.ts) plus ledger sums, one credit journal per intent,
 * foreign keys and the undeclared links between rows (application, environment, intent).
 */
import type { Sql } from '../../packages/server/src/db/sql.js';
import { checkInvariants as pipelineInvariants, type ChainReader } from '../../packages/server/test/crash/invariants.js';
import { bigRows } from '../../packages/server/test/helpers/raw-sql.js';

/** Plain SQL both engines accept, 64-bit integers as BigInt. */
const rows = <T>(sql: Sql, text: string): Promise<T[]> => bigRows<T>(sql, text);

/** Each query returns the offending rows; an empty result means the invariant holds. */
const CHECKS: Record<string, string> = {
  'one INTENT_CREDIT journal per intent': `SELECT funding_intent_id FROM ledger_entries WHERE type = 'INTENT_CREDIT'
    GROUP BY funding_intent_id HAVING COUNT(DISTINCT journal_id) > 1`,
  'credits only for CREDITED intents': `SELECT le.funding_intent_id FROM ledger_entries le JOIN funding_intents fi ON fi.id = le.funding_intent_id
    WHERE le.type = 'INTENT_CREDIT' AND le.account = 'APPLICATION_BALANCE' AND fi.status <> 'CREDITED'`,
  'balanced journals': `SELECT journal_id FROM ledger_entries GROUP BY journal_id
    HAVING SUM(CASE direction WHEN 'CREDIT' THEN amount ELSE 0 END) <> SUM(CASE direction WHEN 'DEBIT' THEN amount ELSE 0 END)`,
  'ledger entries of an existing intent, same application': `SELECT le.id FROM ledger_entries le LEFT JOIN funding_intents fi ON fi.id = le.funding_intent_id
    WHERE le.funding_intent_id IS NOT NULL AND (fi.id IS NULL OR fi.application_id <> le.application_id OR fi.environment <> le.environment)`,
  'payments belong to their intent application': `SELECT p.id FROM payments p JOIN funding_intents fi ON fi.id = p.funding_intent_id
    WHERE fi.application_id <> p.application_id OR fi.environment <> p.environment`,
  'refunds match their payment': `SELECT r.id FROM refunds r JOIN payments p ON p.id = r.payment_id
    WHERE p.funding_intent_id <> r.funding_intent_id OR p.application_id <> r.application_id OR p.environment <> r.environment`,
  'settlements match their payment': `SELECT s.id FROM settlements s JOIN payments p ON p.id = s.payment_id
    WHERE p.funding_intent_id <> s.funding_intent_id OR p.application_id <> s.application_id`,
  'intents have an existing deposit account of theirs': `SELECT fi.id FROM funding_intents fi LEFT JOIN deposit_accounts da ON da.id = fi.deposit_account_id
    WHERE fi.deposit_account_id IS NOT NULL AND (da.id IS NULL OR da.application_id <> fi.application_id)`,
  'events of an existing application': `SELECT e.id FROM events e LEFT JOIN applications a ON a.id = e.application_id WHERE a.id IS NULL`,
  'deliveries to endpoints of the event application': `SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id JOIN events e ON e.id = d.event_id
    WHERE w.application_id <> e.application_id OR w.environment <> e.environment`,
  'checkout sessions of their intent application': `SELECT c.id FROM checkout_sessions c JOIN funding_intents fi ON fi.id = c.funding_intent_id
    WHERE fi.application_id <> c.application_id OR fi.environment <> c.environment`,
  'quotes of their intent application': `SELECT q.id FROM quotes q JOIN funding_intents fi ON fi.id = q.funding_intent_id
    WHERE fi.application_id <> q.application_id OR fi.environment <> q.environment`,
  'history rows of existing intents': `SELECT h.id FROM funding_intent_status_history h LEFT JOIN funding_intents fi ON fi.id = h.funding_intent_id WHERE fi.id IS NULL`,
  'every intent has a history ending at its status': `SELECT fi.id FROM funding_intents fi WHERE fi.status <> (SELECT to_status FROM funding_intent_status_history h
    WHERE h.funding_intent_id = fi.id ORDER BY h.id DESC LIMIT 1)`,
  'api keys of existing applications': `SELECT k.id FROM api_keys k LEFT JOIN applications a ON a.id = k.application_id WHERE a.id IS NULL`,
  'one in-progress refund per payment': `SELECT payment_id FROM refunds WHERE status IN ('PENDING', 'PROCESSING') GROUP BY payment_id HAVING COUNT(*) > 1`,
  'refunds within what the payment brought': `SELECT p.id FROM payments p JOIN refunds r ON r.payment_id = p.id AND r.status <> 'FAILED' AND r.source = 'DEPOSIT'
    GROUP BY p.id HAVING SUM(r.amount) > MAX(p.amount)`,
};

/** The server's database, either engine (`server.sql`), and the sandbox's chain it reconciles against. */
export async function checkDatabase(sql: Sql, chain: ChainReader): Promise<string[]> {
  const problems: string[] = [];
  // SQLite checks foreign keys on request; PostgreSQL refuses an orphan at the write already
  if (sql.dialect === 'sqlite') {
    for (const fk of await rows<{ table: string; parent: string }>(sql, 'PRAGMA foreign_key_check')) problems.push(`orphan row in ${fk.table} (no ${fk.parent})`);
  }
  for (const [name, text] of Object.entries(CHECKS)) {
    const bad = await rows<Record<string, unknown>>(sql, text);
    if (bad.length > 0) problems.push(`${name}: ${JSON.stringify(bad.slice(0, 3), (_, v) => (typeof v === 'bigint' ? String(v) : v))}`);
  }
  problems.push(...await pipelineInvariants(sql, chain));
  return problems;
}

/** The balance the API reports equals the sum of the application's ledger entries, per asset. */
export async function ledgerSums(sql: Sql): Promise<Map<string, bigint>> {
  const sums = new Map<string, bigint>();
  for (const r of await rows<{ application_id: string; environment: string; asset: string; total: bigint }>(sql, `SELECT application_id, environment, asset,
      SUM(CASE direction WHEN 'CREDIT' THEN amount ELSE -amount END) AS total FROM ledger_entries WHERE account = 'APPLICATION_BALANCE'
      GROUP BY application_id, environment, asset`)) {
    sums.set(`${r.application_id}|${r.environment}|${r.asset}`, BigInt(r.total));
  }
  return sums;
}

/** "12.5000000" → stroops */
export function stroops(decimal: string): bigint {
  const [whole, fraction = ''] = decimal.split('.');
  return BigInt(whole!) * 10_000_000n + BigInt((fraction + '0000000').slice(0, 7));
}
