import type { Statement } from 'better-sqlite3';
import type { Db } from '../../db/connection.js';
import type { Environment } from '../../http/context.js';
import { KEYSET_WHERE, keysetParams, type PageRequest } from '../../http/pagination.js';
import type { FundingIntentStatus } from './transitions.js';

export interface FundingIntentRecord {
  id: string;
  application_id: string;
  environment: Environment;
  status: FundingIntentStatus;
  requirement_amount: bigint;
  requirement_asset: string;
  destination_network: string;
  destination_asset: string;
  destination_address: string;
  received_amount: bigint;
  reference: string | null;
  metadata: string;
  deposit_account_id: string | null;
  expires_at: string;
  created_at: string;
  updated_at: string;
  /** changes whenever the row does (migration 019's triggers); random, so never reused */
  row_version: bigint;
}

export interface DepositAccountRecord {
  id: string;
  application_id: string;
  environment: Environment;
  network: string;
  stellar_network: string;
  address: string;
  asset: string;
  secret_encrypted: string;
  status: string;
  created_at: string;
  activated_at: string | null;
  retired_at: string | null;
}

export interface IntentFilters {
  status?: FundingIntentStatus;
  reference?: string;
}

type RowBuilder = (values: unknown[]) => Record<string, unknown>;

interface RowShape {
  build: RowBuilder;
  /** how many columns the built object has (values past them are read by index) */
  count: number;
}

const shapes = new WeakMap<Statement, RowShape>();

/**
 * Rows read as arrays (`raw`) and made into objects by a function generated once per statement
 * from its column names: the same plain objects (same keys, same order, same values) better-sqlite3
 * builds, at about half the cost of its own object mode (measured: a page of 51 intents, 0.33 → 0.17 ms).
 * `extra`: the last columns left out of the object (the same for every call on a statement).
 */
function rowShape(statement: Statement, extra = 0): RowShape {
  let shape = shapes.get(statement);
  if (!shape) {
    const columns = statement.columns().map((c) => c.name);
    const named = columns.slice(0, columns.length - extra);
    // column names are JSON-quoted: nothing from a request reaches this text
    const build = new Function('v', `return {${named.map((name, i) => `${JSON.stringify(name)}: v[${i}]`).join(', ')}};`) as RowBuilder;
    shape = { build, count: named.length };
    shapes.set(statement, shape);
  }
  return shape;
}

function allRows<T>(statement: Statement, params: unknown[]): T[] {
  const { build } = rowShape(statement);
  const rows = statement.raw(true).all(...params) as unknown[][];
  const out = new Array<T>(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = build(rows[i]!) as T;
  return out;
}

function oneRow<T>(statement: Statement, params: unknown[]): T | undefined {
  const { build } = rowShape(statement);
  const row = statement.raw(true).get(...params) as unknown[] | undefined;
  return row ? (build(row) as T) : undefined;
}

export interface PageRelations {
  accounts: Map<string, DepositAccountRecord>;
  /** by address: the provisioning transaction hash, null when there is none */
  registrations: Map<string, string | null>;
  /** intents with any settlement or payment row */
  related: Set<string>;
}

/** Whether the intent has any settlement or any payment (a superset of those the wire shape shows). */
const RELATED_SQL = (intentId: string) =>
  `(EXISTS (SELECT 1 FROM settlements WHERE funding_intent_id = ${intentId}) OR EXISTS (SELECT 1 FROM payments WHERE funding_intent_id = ${intentId}))`;

/** Intent rows kept by their version (~0.5 KB each); cleared when full. */
const ROW_CACHE_SIZE = 5_000;

export class FundingIntentsRepo {
  /**
   * Intent rows a list read before, by id. A list reads each row's id and version from its index
   * and reads in full only the rows whose version differs from the kept row's: the version changes
   * with every write to the row (migration 019), so an equal version is the same row. Lists get copies.
   */
  private readonly rowsById = new Map<string, FundingIntentRecord>();

  constructor(private readonly db: Db) {}

  insertDepositAccount(account: DepositAccountRecord): void {
    this.db.prepare(`INSERT INTO deposit_accounts (id, application_id, environment, network, stellar_network, address, asset, secret_encrypted, status, created_at, activated_at, retired_at)
      VALUES (@id, @application_id, @environment, @network, @stellar_network, @address, @asset, @secret_encrypted, @status, @created_at, @activated_at, @retired_at)`).run(account);
  }

  findDepositAccount(id: string): DepositAccountRecord | undefined {
    return this.db.prepare('SELECT * FROM deposit_accounts WHERE id = ?').get(id) as DepositAccountRecord | undefined;
  }

  /**
   * What a page of intents shows besides their own rows, read for every page since any of it can
   * change: their deposit accounts, each account's registration (the provisioning transaction of
   * its watched address, null when none), and which intents have any settlement or payment row
   * (only those can show one, so only those need the settlement and payment reads). One query
   * for a retrieve, two for a list.
   */
  pageRelations(intents: { id: string; deposit_account_id: string | null }[]): PageRelations {
    const accounts = new Map<string, DepositAccountRecord>();
    const registrations = new Map<string, string | null>();
    const related = new Set<string>();
    const keep = (row: unknown[], build: RowBuilder, count: number) => {
      const account = build(row) as unknown as DepositAccountRecord;
      accounts.set(account.id, account);
      registrations.set(account.address, row[count] as string | null);
    };
    if (intents.length === 0) return { accounts, registrations, related };
    if (intents.length === 1) {
      const [intent] = intents as [{ id: string; deposit_account_id: string | null }];
      const statement = this.db.prepare(`SELECT da.*, dw.provision_tx_hash, ${RELATED_SQL('@intent')} FROM deposit_accounts da
        LEFT JOIN deposit_watch dw ON dw.address = da.address WHERE da.id = @account`).raw(true);
      const { build, count } = rowShape(statement, 2);
      const row = statement.get({ account: intent.deposit_account_id, intent: intent.id }) as unknown[] | undefined;
      if (row) {
        keep(row, build, count);
        if (row[count + 1]) related.add(intent.id);
      }
      return { accounts, registrations, related };
    }
    const distinct = [...new Set(intents.map((i) => i.deposit_account_id))];
    const statement = distinct.length === 1
      ? this.db.prepare('SELECT da.*, dw.provision_tx_hash FROM deposit_accounts da LEFT JOIN deposit_watch dw ON dw.address = da.address WHERE da.id = ?').raw(true)
      : this.db.prepare('SELECT da.*, dw.provision_tx_hash FROM deposit_accounts da LEFT JOIN deposit_watch dw ON dw.address = da.address WHERE da.id IN (SELECT value FROM json_each(?))').raw(true);
    const { build, count } = rowShape(statement, 1);
    const rows = statement.all(distinct.length === 1 ? distinct[0] ?? null : JSON.stringify(distinct)) as unknown[][];
    for (const row of rows) keep(row, build, count);
    const flagged = this.db.prepare(`SELECT value FROM json_each(?) WHERE ${RELATED_SQL('value')}`).pluck().all(JSON.stringify(intents.map((i) => i.id))) as string[];
    for (const id of flagged) related.add(id);
    return { accounts, registrations, related };
  }

  /** Intents by id, in one query (amounts as BigInt). */
  findByIds(ids: string[]): Map<string, FundingIntentRecord> {
    const rows = this.db.prepare('SELECT * FROM funding_intents WHERE id IN (SELECT value FROM json_each(?))').safeIntegers(true).all(JSON.stringify([...new Set(ids)])) as FundingIntentRecord[];
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** The version is the database's to give (random, see migration 019). */
  insert(intent: Omit<FundingIntentRecord, 'row_version'>): void {
    this.db.prepare(`INSERT INTO funding_intents (id, application_id, environment, status, requirement_amount, requirement_asset, destination_network, destination_asset,
      destination_address, received_amount, reference, metadata, deposit_account_id, expires_at, created_at, updated_at, row_version)
      VALUES (@id, @application_id, @environment, @status, @requirement_amount, @requirement_asset, @destination_network, @destination_asset,
      @destination_address, @received_amount, @reference, @metadata, @deposit_account_id, @expires_at, @created_at, @updated_at, random() >> 11)`).run(intent);
  }

  /** Amounts come back as BigInt (safeIntegers): stroops can exceed 2^53. */
  findById(id: string): FundingIntentRecord | undefined {
    return oneRow<FundingIntentRecord>(this.db.prepare('SELECT * FROM funding_intents WHERE id = ?').safeIntegers(true), [id]);
  }

  list(applicationId: string, environment: Environment, filters: IntentFilters, page: PageRequest): FundingIntentRecord[] {
    const where = ['application_id = @applicationId', 'environment = @environment'];
    if (filters.status) where.push('status = @status');
    if (filters.reference !== undefined) where.push('reference = @reference');
    if (page.after) where.push(KEYSET_WHERE);
    const params = { applicationId, environment, status: filters.status ?? null, reference: filters.reference ?? null, ...keysetParams(page) };
    const rest = `FROM funding_intents WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT @limitPlusOne`;
    const read = this.db.prepare(`SELECT id, row_version ${rest}`).raw(true).safeIntegers(true).all(params) as [string, bigint][];
    const rows = new Array<FundingIntentRecord>(read.length);
    // ids are the primary key: one position per id
    let missing: Map<string, number> | undefined;
    for (let i = 0; i < read.length; i++) {
      const [id, version] = read[i]!;
      const known = this.rowsById.get(id);
      if (known && known.row_version === version) rows[i] = { ...known };
      else (missing ??= new Map()).set(id, i);
    }
    if (missing) {
      const found = this.db.prepare('SELECT * FROM funding_intents WHERE id IN (SELECT value FROM json_each(?))').safeIntegers(true)
        .all(JSON.stringify([...missing.keys()])) as FundingIntentRecord[];
      if (this.rowsById.size + found.length > ROW_CACHE_SIZE) this.rowsById.clear();
      for (const row of found) {
        // kept with the version of this read (the list's unless the row changed in between)
        this.rowsById.set(row.id, { ...row });
        rows[missing.get(row.id)!] = row;
      }
      // a row deleted between the two reads: the page is read again as it is now
      if (found.length < missing.size) return allRows<FundingIntentRecord>(this.db.prepare(`SELECT * ${rest}`).safeIntegers(true), [params]);
    }
    return rows;
  }

  setStatus(id: string, status: FundingIntentStatus, at: string): void {
    this.db.prepare('UPDATE funding_intents SET status = ?, updated_at = ? WHERE id = ?').run(status, at, id);
  }

  insertHistory(intentId: string, from: FundingIntentStatus | null, to: FundingIntentStatus, reason: string | null, at: string): void {
    this.db.prepare('INSERT INTO funding_intent_status_history (funding_intent_id, from_status, to_status, reason, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(intentId, from, to, reason, at);
  }

  history(intentId: string): { from_status: string | null; to_status: string; reason: string | null; created_at: string }[] {
    return this.db.prepare('SELECT from_status, to_status, reason, created_at FROM funding_intent_status_history WHERE funding_intent_id = ? ORDER BY id').all(intentId) as never;
  }
}
