/**
 * What Horizon would have ingested: transactions, operations and effects, indexed by the
 * accounts that took part, in paging-token order. All SQL over history lives here.
 */
import type { Kysely, SelectQueryBuilder } from 'kysely';
import { dynamic, prepared, type Params, type Prepared } from './sql/sql.js';
import type {
  HorizonEffect, HorizonOperationRecord, HorizonPaymentRecord, HorizonTransaction,
} from './shared/horizon-types.js';
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

type Order = Page<unknown>['order'];
type Select = SelectQueryBuilder<any, any, any>;

const after = (order: Order) => (order === 'asc' ? '>' : '<');
const cursorOf = (p: Page<bigint>) => p.cursor ?? (p.order === 'asc' ? -1n : MAX_TOKEN);

/** Paging tokens of a ledger's records lie in [seq << 32, (seq + 1) << 32) (TOID). */
function inLedger(q: Select, column: string, ledger: number | undefined): Select {
  return ledger === undefined ? q : q.where(column, '>=', BigInt(ledger) << 32n).where(column, '<', BigInt(ledger + 1) << 32n);
}

/** A list's records, each the JSON text of its resource. */
async function parsed<T>(store: SandboxStore, query: Prepared<{ json: string }, any>, args: object = {}): Promise<T[]> {
  return (await store.sql.column(query, args)).map((json) => JSON.parse(json) as T);
}

const INSERT_TRANSACTION = prepared<never, { hash: string; ledger: number; successful: number; resource: string; paging: bigint }>((k, p) =>
  k.insertInto('sbx_transactions').values({
    hash: p('hash'), ledger: p('ledger'), successful: p('successful'), resource: p('resource'), paging: p('paging'),
  }));

const LINK_TRANSACTION = prepared<never, { account: string; paging: bigint }>((k, p) =>
  k.insertInto('sbx_tx_accounts').values({ account: p('account'), paging: p('paging') }).onConflict((oc) => oc.doNothing()));

const GET_TRANSACTION = prepared<{ resource: string }, { hash: string }>((k, p) =>
  k.selectFrom('sbx_transactions').select('resource').where('hash', '=', p('hash')));

const INSERT_OPERATION = prepared<never, { id: bigint; tx_hash: string; successful: number; record: string; is_payment: number }>((k, p) =>
  k.insertInto('sbx_operations').values({
    id: p('id'), tx_hash: p('tx_hash'), successful: p('successful'), record: p('record'), is_payment: p('is_payment'),
  }));

const LINK_OPERATION = prepared<never, { account: string; op_id: bigint }>((k, p) =>
  k.insertInto('sbx_op_accounts').values({ account: p('account'), op_id: p('op_id') }).onConflict((oc) => oc.doNothing()));

const GET_OPERATION = prepared<{ record: string }, { id: bigint }>((k, p) => k.selectFrom('sbx_operations').select('record').where('id', '=', p('id')));

const INSERT_EFFECT = prepared<never, { op_id: bigint; idx: number; account: string; tx_hash: string; record: string }>((k, p) =>
  k.insertInto('sbx_effects').values({
    op_id: p('op_id'), idx: p('idx'), account: p('account'), tx_hash: p('tx_hash'), record: p('record'),
  }));

const LATEST_RECORD_ID = prepared<{ id: bigint | null }>((k) => k.selectFrom('sbx_operations').select((eb) => eb.fn.max('id').as('id')),
  { bigint: true });

export async function insertTransaction(store: SandboxStore, t: HorizonTransaction, accounts: Iterable<string>): Promise<void> {
  const paging = BigInt(t.paging_token);
  await store.sql.run(INSERT_TRANSACTION, { hash: t.hash, ledger: t.ledger, successful: t.successful ? 1 : 0, resource: JSON.stringify(t), paging });
  for (const account of accounts) await store.sql.run(LINK_TRANSACTION, { account, paging });
}

export async function getTransaction(store: SandboxStore, hash: string): Promise<HorizonTransaction | undefined> {
  const row = await store.sql.get(GET_TRANSACTION, { hash });
  return row && (JSON.parse(row.resource) as HorizonTransaction);
}

export async function listTransactions(store: SandboxStore, f: HistoryFilter, p: Page<bigint>): Promise<HorizonTransaction[]> {
  return parsed(store, dynamic<{ json: string }>((k) => {
    let q: Select = k.selectFrom('sbx_transactions as t');
    if (f.account) q = q.innerJoin('sbx_tx_accounts as a', (j) => j.onRef('a.paging', '=', 't.paging').on('a.account', '=', f.account!));
    q = inLedger(q.select('t.resource as json').where('t.paging', after(p.order), cursorOf(p)), 't.paging', f.ledger);
    if (!f.includeFailed) q = q.where((eb) => eb('t.successful', '=', eb.lit(1)));
    return q.orderBy('t.paging', p.order).limit(p.limit);
  }));
}

export async function insertOperation(store: SandboxStore, r: HorizonOperationRecord): Promise<void> {
  const id = BigInt(r.id);
  await store.sql.run(INSERT_OPERATION, {
    id, tx_hash: r.transaction_hash, successful: r.transaction_successful ? 1 : 0, record: JSON.stringify(r), is_payment: isPayment(r) ? 1 : 0,
  });
  for (const account of participants(r)) await store.sql.run(LINK_OPERATION, { account, op_id: id });
}

export async function getOperation(store: SandboxStore, id: bigint): Promise<HorizonOperationRecord | undefined> {
  const row = await store.sql.get(GET_OPERATION, { id });
  return row && (JSON.parse(row.record) as HorizonOperationRecord);
}

type OperationsFilter = HistoryFilter & { paymentsOnly?: boolean };

/**
 * The operations list. Its values are either values (listOperations builds it per call) or
 * parameters (`p(...)`, listRecords' prepared queries, where a parameter means the filter is there).
 */
function operations(k: Kysely<any>, f: OperationsFilter, page: { cursor: bigint; limit: number; order: Order }): Select {
  let q: Select = k.selectFrom('sbx_operations as o');
  if (f.account) q = q.innerJoin('sbx_op_accounts as a', (j) => j.onRef('a.op_id', '=', 'o.id').on('a.account', '=', f.account!));
  q = inLedger(q.select('o.record as json').where('o.id', after(page.order), page.cursor), 'o.id', f.ledger);
  if (f.txHash) q = q.where('o.tx_hash', '=', f.txHash);
  if (f.paymentsOnly) q = q.where((eb) => eb('o.is_payment', '=', eb.lit(1)));
  if (!f.includeFailed) q = q.where((eb) => eb('o.successful', '=', eb.lit(1)));
  return q.orderBy('o.id', page.order).limit(page.limit);
}

export async function listOperations(store: SandboxStore, f: OperationsFilter, p: Page<bigint>): Promise<HorizonOperationRecord[]> {
  return parsed(store, dynamic<{ json: string }>((k) => operations(k, f, { cursor: cursorOf(p), limit: p.limit, order: p.order })));
}

type RecordsArgs = { account: string; cursor: bigint; limit: number };

/** listOperations' query for listRecords, prepared: each payments stream reads it at every close that pays its account. */
const RECORDS = Object.fromEntries((['asc', 'desc'] as const).flatMap((order) => [false, true].map((includeFailed) => [
  `${order} ${includeFailed}`,
  prepared<{ json: string }, RecordsArgs>((k, p) =>
    operations(k, { account: p('account'), includeFailed, paymentsOnly: true }, { cursor: p('cursor'), limit: p('limit'), order })),
])));

/** Payment records of one account (the observer's and the payments stream's query). */
export async function listRecords(store: SandboxStore, q: HistoryQuery): Promise<HorizonPaymentRecord[]> {
  return parsed(store, RECORDS[`${q.order} ${q.includeFailed}`]!, { account: q.account, cursor: cursorOf(q), limit: q.limit });
}

const LEDGER_PAYMENTS = prepared<{ record: string; tx: string }, { from: bigint; to: bigint }>((k, p) => k.selectFrom('sbx_operations as o')
  .innerJoin('sbx_transactions as t', 't.hash', 'o.tx_hash').select(['o.record as record', 't.resource as tx'])
  .where('o.id', '>=', p('from')).where('o.id', '<', p('to'))
  .where((eb) => eb.and([eb('o.is_payment', '=', eb.lit(1)), eb('o.successful', '=', eb.lit(1))])).orderBy('o.id', 'asc'));

/** Successful payment records of ledgers from..through, each with its transaction: one query for any number of accounts. */
export async function listLedgerPayments(store: SandboxStore, from: number, through: number): Promise<HorizonPaymentRecord[]> {
  const rows = await store.sql.all(LEDGER_PAYMENTS, { from: BigInt(from) << 32n, to: BigInt(through + 1) << 32n });
  return rows.map((row) => ({ ...JSON.parse(row.record), transaction: JSON.parse(row.tx) }) as HorizonPaymentRecord)
    .filter(isPayment);
}

export async function insertEffects(
  store: SandboxStore, opId: bigint, txHash: string, createdAt: string, effects: EffectBody[],
): Promise<void> {
  for (const [i, e] of effects.entries()) {
    const { account, type, type_i, ...fields } = e;
    const record = { ...effectIds(opId, i + 1), account, type, type_i, created_at: createdAt, ...fields };
    await store.sql.run(INSERT_EFFECT, { op_id: opId, idx: i + 1, account, tx_hash: txHash, record: JSON.stringify(record) });
  }
}

/** An effect cursor: its operation id and 1-based order ("12884905986-2"). */
export type EffectCursor = [bigint, number];

export async function listEffects(
  store: SandboxStore, f: HistoryFilter & { operation?: bigint }, p: Page<EffectCursor>,
): Promise<HorizonEffect[]> {
  const asc = p.order === 'asc';
  const [op, idx] = p.cursor ?? [asc ? -1n : MAX_TOKEN, 0];
  const cmp = after(p.order);
  return parsed(store, dynamic<{ json: string }>((k) => {
    let q: Select = k.selectFrom('sbx_effects as e').select('e.record as json')
      .where((eb) => eb.or([eb('e.op_id', cmp, op), eb.and([eb('e.op_id', '=', op), eb('e.idx', cmp, idx)])]));
    if (f.account) q = q.where('e.account', '=', f.account);
    q = inLedger(q, 'e.op_id', f.ledger);
    if (f.txHash) q = q.where('e.tx_hash', '=', f.txHash);
    if (f.operation !== undefined) q = q.where('e.op_id', '=', f.operation);
    return q.orderBy('e.op_id', p.order).orderBy('e.idx', p.order).limit(p.limit);
  }));
}

type AccountsBy = 'asset' | 'sponsor' | 'signer';
type AccountsArgs = { value: string; cursor: string; limit: number };

function accountIds(k: Kysely<any>, by: AccountsBy, order: Order, p: Params<AccountsArgs>) {
  if (by === 'asset') {
    return k.selectFrom('sbx_trustlines').select('account as id').where('asset', '=', p('value')).where('account', after(order), p('cursor'))
      .orderBy('id', order).limit(p('limit'));
  }
  const ids = by === 'sponsor'
    // Horizon: accounts the sponsor pays the reserve of, or of one of their subentries.
    ? k.selectFrom('sbx_accounts').select('id').where('sponsor', '=', p('value'))
      .union(k.selectFrom('sbx_trustlines').select('account as id').where('sponsor', '=', p('value')))
      .union(k.selectFrom('sbx_signers').select('account as id').where('sponsor', '=', p('value')))
    // Horizon's signer summary: the master key while its weight is above 0, and every signer.
    : k.selectFrom('sbx_accounts').select('id').where('id', '=', p('value')).where((eb) => eb('master_weight', '>', eb.lit(0)))
      .union(k.selectFrom('sbx_signers').select('account as id').where('key', '=', p('value')));
  return k.selectFrom(ids.as('ids')).select('id').where('id', after(order), p('cursor')).orderBy('id', order).limit(p('limit'));
}

const ACCOUNT_IDS = Object.fromEntries((['asset', 'sponsor', 'signer'] as const).flatMap((by) => (['asc', 'desc'] as const).map((order) => [
  `${by} ${order}`, prepared<{ id: string }, AccountsArgs>((k, p) => accountIds(k, by, order, p)),
])));

/** Accounts by the one filter Horizon's /accounts takes; paged by account id. */
export async function listAccountIds(
  store: SandboxStore, filter: { asset?: string; signer?: string; sponsor?: string }, p: Page<string>,
): Promise<string[]> {
  const asc = p.order === 'asc';
  const cursor = p.cursor ?? (asc ? '' : '\uffff');
  const [by, value]: [AccountsBy, string] = filter.asset !== undefined ? ['asset', filter.asset]
    : filter.sponsor !== undefined ? ['sponsor', filter.sponsor] : ['signer', filter.signer ?? ''];
  return store.sql.column(ACCOUNT_IDS[`${by} ${p.order}`]!, { value, cursor, limit: p.limit });
}

/** The paging token of the newest operation ("cursor=now" on payment streams). */
export async function latestRecordId(store: SandboxStore): Promise<bigint> {
  return (await store.sql.get(LATEST_RECORD_ID))!.id ?? 0n;
}
