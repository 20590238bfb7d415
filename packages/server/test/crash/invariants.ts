/** What must hold after any number of crashes, read straight from the database and the sandbox ledger. */
import { sqlOf, type Sql, type SqlSource } from '../../src/db/sql.js';
import { bigRows } from '../helpers/raw-sql.js';
import { eventFor, type FundingIntentStatus } from '../../src/records/intent-transitions.js';
import { movementsInto } from '../../src/pipeline/records.js';
import { SandboxLedger } from '@fundkit/sandbox';
import { type HorizonPaymentRecord } from '../../src/stellar/index.js';

const all = <T>(sql: Sql, text: string, ...args: unknown[]) => bigRows<T>(sql, text, ...args);

/** Every payment record of an address on the sandbox's chain, incoming and outgoing. */
export type ChainReader = (address: string) => Promise<HorizonPaymentRecord[]>;

/** The chain in a sandbox's file (a sandbox thread's, read after the server stopped). */
export function chainIn(source: SqlSource): ChainReader {
  const ledger = new SandboxLedger(sqlOf(source));
  return (address) => ledger.listPayments({ account: address, limit: 1000, order: 'asc', includeFailed: false });
}

/** The chain as any wallet reads it: the sandbox's Horizon (the server forwards /sandbox/horizon to it). */
export function chainAt(horizonUrl: string, { includeFailed = false } = {}): ChainReader {
  return async (address) => {
    const res = await fetch(`${horizonUrl}/accounts/${address}/payments?limit=200&order=asc&join=transactions&include_failed=${includeFailed}`);
    if (res.status === 404) return [];
    if (!res.ok) throw new Error(`Horizon answered ${res.status} for ${address}'s payments`);
    return ((await res.json()) as { _embedded: { records: HorizonPaymentRecord[] } })._embedded.records;
  };
}
interface DepositRow {
  /** the address the payer pays: the account (G…), or a muxed intent's M… on its collection account */
  address: string;
  /** the account whose chain holds its payments: the deposit account, or the collection account */
  account: string;
  muxed_id: string | null;
  intent: string;
  status: string;
  received: bigint;
}
const depositAccounts = (sql: Sql) => all<DepositRow>(sql, `SELECT da.address, COALESCE(da.collection_address, da.address) AS account, da.muxed_id,
  fi.id AS intent, fi.status, fi.received_amount AS received FROM funding_intents fi JOIN deposit_accounts da ON da.id = fi.deposit_account_id`);
const recordedIds = async (sql: Sql, address: string) => (await all<{ operation_id: string }>(sql, 'SELECT operation_id FROM payments WHERE destination_address = ?', address)).map((p) => p.operation_id).sort();

/**
 * The id of each movement of value into a deposit address: a payment's operation id, a SAC
 * transfer's `${toid}-${i}`; for a muxed intent, those into its collection account naming its id.
 */
const movementIds = (records: HorizonPaymentRecord[], a: DepositRow) => records.flatMap((r) => movementsInto(r, a.account)
  .filter((m) => a.muxed_id === null || m.toMuxedId === a.muxed_id).map((m) => m.operationId));

/** One read of each account's chain per check: the collection accounts are shared by every muxed intent. */
function once(chain: ChainReader): ChainReader {
  const read = new Map<string, Promise<HorizonPaymentRecord[]>>();
  return (address) => {
    if (!read.has(address)) read.set(address, chain(address));
    return read.get(address)!;
  };
}

/** Payments on the ledger that the service has not recorded yet: work still in flight. */
export async function unrecordedPayments(source: SqlSource, chain: ChainReader = chainIn(source)): Promise<number> {
  const sql = sqlOf(source);
  let n = 0;
  const read = once(chain);
  for (const a of await depositAccounts(sql)) {
    const recorded = new Set(await recordedIds(sql, a.address));
    n += movementIds(await read(a.account), a).filter((id) => !recorded.has(id)).length;
  }
  return n;
}

/** Read on one snapshot: rows committed while it runs would otherwise look like lost updates. */
export async function checkInvariants(source: SqlSource, chain: ChainReader = chainIn(source)): Promise<string[]> {
  const sql = sqlOf(source);
  return sql.snapshot(() => check(sql, chain));
}

async function check(sql: Sql, chain: ChainReader): Promise<string[]> {
  const problems: string[] = [];
  const read = once(chain);
  for (const a of await depositAccounts(sql)) {
    const records = await read(a.account);
    const onChain = movementIds(records, a).sort();
    const recorded = await recordedIds(sql, a.address);
    if (JSON.stringify(onChain) !== JSON.stringify(recorded)) problems.push(`${a.intent}: on-chain payments ${onChain} vs recorded ${recorded}`);
    const applied = (await all<{ total: bigint | null }>(sql, "SELECT SUM(amount) AS total FROM payments WHERE funding_intent_id = ? AND status IN ('DETECTED', 'CONFIRMED') AND applied_amount > 0", a.intent))[0]!.total ?? 0n;
    // an underpayment refunded on its own (applied_amount 0) no longer counts toward received_amount
    if (applied !== a.received) problems.push(`${a.intent}: received ${a.received} but applied payments sum to ${applied}`);
    const credits = (await all<{ n: bigint }>(sql, "SELECT COUNT(*) AS n FROM ledger_entries WHERE funding_intent_id = ? AND type = 'INTENT_CREDIT' AND account = 'APPLICATION_BALANCE'", a.intent))[0]!.n;
    if (credits !== (a.status === 'CREDITED' ? 1n : 0n)) problems.push(`${a.intent}: ${credits} credits while ${a.status}`);
    // every payout from the deposit account is exactly one settlement or one completed refund (a
    // collection account pays out for every muxed intent: its payouts are no one intent's)
    if (a.muxed_id !== null) continue;
    const outgoing = records.filter((r) => r.type === 'payment' && r.from === a.address).length;
    const expected = Number((await all<{ n: bigint }>(sql, `SELECT (SELECT COUNT(*) FROM settlements WHERE funding_intent_id = ? AND status = 'CONFIRMED')
      + (SELECT COUNT(*) FROM refunds WHERE funding_intent_id = ? AND status = 'COMPLETED' AND source = 'DEPOSIT') AS n`, a.intent, a.intent))[0]!.n);
    if (outgoing !== expected) problems.push(`${a.intent}: ${outgoing} payouts on chain, ${expected} recorded`);
  }
  for (const j of (await all<{ journal_id: string; credit: bigint; debit: bigint }>(sql, `SELECT journal_id, SUM(CASE direction WHEN 'CREDIT' THEN amount ELSE 0 END) AS credit,
      SUM(CASE direction WHEN 'DEBIT' THEN amount ELSE 0 END) AS debit FROM ledger_entries GROUP BY journal_id`))) {
    if (j.credit !== j.debit) problems.push(`journal ${j.journal_id} unbalanced`);
  }
  const events = (await all<{ payload: string }>(sql, 'SELECT payload FROM events')).map((e) => JSON.parse(e.payload) as { type: string; data: Record<string, string> });
  const seen = new Map<string, number>();
  for (const e of events) {
    const k = `${e.type}|${e.data.funding_intent_id}|${e.data.status}|${e.data.refund_id ?? ''}`;
    seen.set(k, (seen.get(k) ?? 0) + 1);
  }
  for (const h of (await all<{ funding_intent_id: string; to_status: FundingIntentStatus }>(sql, 'SELECT funding_intent_id, to_status FROM funding_intent_status_history'))) {
    const type = eventFor(h.to_status);
    if (type && !seen.get(`${type}|${h.funding_intent_id}|${h.to_status}|`)) problems.push(`${h.funding_intent_id}: no ${type} for ${h.to_status}`);
  }
  for (const r of (await all<{ id: string; funding_intent_id: string; status: string }>(sql, 'SELECT id, funding_intent_id, status FROM refunds'))) {
    if (!events.some((e) => e.type === 'refund.created' && e.data.refund_id === r.id)) problems.push(`refund ${r.id}: no refund.created`);
    if (r.status === 'COMPLETED' && !events.some((e) => e.type === 'refund.completed' && e.data.refund_id === r.id)) problems.push(`refund ${r.id}: no refund.completed`);
  }
  return problems;
}
