/** Funding intent rows, their deposit accounts, and SQL over them (records/README.md). */
import type { Kysely } from 'kysely';
import { bindAll, newRowVersion, prepared, sqlOf, type Sql, type SqlSource, type Prepared } from '../db/sql.js';
import type { Caller } from '../domain/caller.js';
import type { Environment } from '../domain/environment.js';
import { afterPosition, type PageRequest } from '../domain/page.js';
import type { FundingIntentStatus } from './intent-transitions.js';

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
  /** the hosted checkout link's secret, sealed (resources/funding-intents/checkout-link.ts); null for intents made before links had one */
  checkout_secret: string | null;
  /** changes whenever the row does (migration 019's triggers); random, so never reused */
  row_version: bigint;
}

/**
 * The ownership check payments, settlements and refunds make before showing what hangs off an
 * intent (FundingIntentsService.load: another application's intent is not found, the other
 * environment's forbidden). Named here, below them, so they need not import resources/funding-intents/,
 * whose read model composes them.
 */
export interface IntentOwnership {
  load(caller: Caller, id: string): Promise<FundingIntentRecord>;
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
  /** `account`: an account of its own; `muxed`: `address` is an M… address on `collection_address` (migration 033) */
  deposit_type: 'account' | 'muxed';
  muxed_id: string | null;
  collection_address: string | null;
}

export interface IntentFilters {
  status?: FundingIntentStatus;
  reference?: string;
}

export interface PageRelations {
  accounts: Map<string, DepositAccountRecord>;
  /** by address: the provisioning transaction hash, null when there is none */
  registrations: Map<string, string | null>;
  /** intents with any settlement or payment row */
  related: Set<string>;
}

const DEPOSIT_ACCOUNT_COLUMNS = ['id', 'application_id', 'environment', 'network', 'stellar_network', 'address', 'asset',
  'secret_encrypted', 'status', 'created_at', 'activated_at', 'retired_at', 'deposit_type', 'muxed_id', 'collection_address'] as const;

const INTENT_COLUMNS = ['id', 'application_id', 'environment', 'status', 'requirement_amount', 'requirement_asset', 'destination_network',
  'destination_asset', 'destination_address', 'received_amount', 'reference', 'metadata', 'deposit_account_id', 'expires_at',
  'created_at', 'updated_at', 'checkout_secret', 'row_version'] as const;

const INSERT_DEPOSIT_ACCOUNT = prepared<never, DepositAccountRecord>((k, p) =>
  k.insertInto('deposit_accounts').values(bindAll(p, DEPOSIT_ACCOUNT_COLUMNS)));

// a muxed id drawn twice (two servers, one database): nothing inserted, the create draws again
const INSERT_MUXED_DEPOSIT = prepared<never, DepositAccountRecord>((k, p) =>
  k.insertInto('deposit_accounts').values(bindAll(p, DEPOSIT_ACCOUNT_COLUMNS)).onConflict((oc) => oc.doNothing()));

const DEPOSIT_ACCOUNT = prepared<DepositAccountRecord, { id: string }>((k, p) =>
  k.selectFrom('deposit_accounts').selectAll().where('id', '=', p('id')));

type AccountWithRegistration = DepositAccountRecord & { provision_tx_hash: string | null };

/**
 * A retrieve's relations in one query: the account, its registration, and whether the intent has
 * any settlement or any payment (a superset of those the wire shape shows).
 */
const ONE_INTENT_RELATIONS = prepared<AccountWithRegistration & { related: number }, { account: string | null; intent: string }>((k, p) =>
  k.selectFrom('deposit_accounts as da').leftJoin('deposit_watch as dw', 'dw.address', 'da.address')
    .selectAll('da').select('dw.provision_tx_hash')
    .select((eb) => eb.or([
      eb.exists(eb.selectFrom('settlements').select(eb.lit(1).as('one')).where('funding_intent_id', '=', p('intent'))),
      eb.exists(eb.selectFrom('payments').select(eb.lit(1).as('one')).where('funding_intent_id', '=', p('intent'))),
    ]).as('related'))
    .where('da.id', '=', p('account')));

const ACCOUNTS_WITH_REGISTRATION = prepared<AccountWithRegistration, { ids: string[] }>((k, p, d) =>
  k.selectFrom('deposit_accounts as da').leftJoin('deposit_watch as dw', 'dw.address', 'da.address')
    .selectAll('da').select('dw.provision_tx_hash').where(d.oneOf('da.id', p('ids'))));

const ACCOUNT_WITH_REGISTRATION = prepared<AccountWithRegistration, { id: string | null }>((k, p) =>
  k.selectFrom('deposit_accounts as da').leftJoin('deposit_watch as dw', 'dw.address', 'da.address')
    .selectAll('da').select('dw.provision_tx_hash').where('da.id', '=', p('id')));

/** Of the given intents, those with any settlement or payment row. */
const RELATED_OF = prepared<{ id: string }, { ids: string[] }>((k, p, d) =>
  k.selectFrom(d.values(p('ids'), 'l')).select('l.value as id')
    .where((eb) => eb.or([
      eb.exists(eb.selectFrom('settlements as s').select(eb.lit(1).as('one')).whereRef('s.funding_intent_id', '=', 'l.value')),
      eb.exists(eb.selectFrom('payments as pm').select(eb.lit(1).as('one')).whereRef('pm.funding_intent_id', '=', 'l.value')),
    ])));

const INTENTS_BY_IDS = prepared<FundingIntentRecord, { ids: string[] }>((k, p, d) =>
  k.selectFrom('funding_intents').selectAll().where(d.oneOf('id', p('ids'))), { bigint: true });

const INTENT_MARKERS = prepared<{ id: string; status: string; received_amount: bigint; updated_at: string }, { ids: string[] }>((k, p, d) =>
  k.selectFrom('funding_intents').select(['id', 'status', 'received_amount', 'updated_at']).where(d.oneOf('id', p('ids'))), { bigint: true });

const WITHOUT_LINK_SECRET = prepared<{ id: string }, { limit: number }>((k, p) =>
  k.selectFrom('funding_intents').select('id').where('checkout_secret', 'is', null).orderBy('id').limit(p('limit')));

// only where none is set yet: two servers starting at once never replace each other's secret
const SET_LINK_SECRET = prepared<never, { id: string; secret: string; version: bigint }>((k, p) =>
  k.updateTable('funding_intents').set({ checkout_secret: p('secret'), row_version: p('version') })
    .where('id', '=', p('id')).where('checkout_secret', 'is', null));

const INSERT_INTENT = prepared<never, FundingIntentRecord>((k, p) => k.insertInto('funding_intents').values(bindAll(p, INTENT_COLUMNS)));

const INTENT = prepared<FundingIntentRecord, { id: string }>((k, p) =>
  k.selectFrom('funding_intents').selectAll().where('id', '=', p('id')), { bigint: true });

const SET_STATUS = prepared<never, { id: string; status: FundingIntentStatus; at: string }>((k, p) =>
  k.updateTable('funding_intents').set({ status: p('status'), updated_at: p('at') }).where('id', '=', p('id')));

const INSERT_HISTORY = prepared<never, { intentId: string; from: FundingIntentStatus | null; to: FundingIntentStatus; reason: string | null; at: string }>((k, p) =>
  k.insertInto('funding_intent_status_history')
    .values({ funding_intent_id: p('intentId'), from_status: p('from'), to_status: p('to'), reason: p('reason'), created_at: p('at') }));

type HistoryRow = { from_status: string | null; to_status: string; reason: string | null; created_at: string };
const HISTORY = prepared<HistoryRow, { intentId: string }>((k, p) =>
  k.selectFrom('funding_intent_status_history').select(['from_status', 'to_status', 'reason', 'created_at'])
    .where('funding_intent_id', '=', p('intentId')).orderBy('id'));

interface ListArgs {
  applicationId: string;
  environment: Environment;
  status: FundingIntentStatus | null;
  reference: string | null;
  afterCreatedAt: string | null;
  afterId: string | null;
  limitPlusOne: number;
}

/**
 * A list's two reads (ids and versions; whole rows), prepared once per combination of filters:
 * a list is on the request path, where building a query each time would cost more than reading it.
 */
const listQueries = new Map<string, { versions: Prepared<{ id: string; row_version: bigint }, ListArgs>; rows: Prepared<FundingIntentRecord, ListArgs> }>();

function listQueriesFor(filters: IntentFilters, page: PageRequest) {
  const key = `${filters.status !== undefined}${filters.reference !== undefined}${page.after !== null}`;
  let queries = listQueries.get(key);
  if (!queries) {
    const from = (k: Kysely<any>, p: (name: keyof ListArgs & string) => any) => k.selectFrom('funding_intents')
      .where('application_id', '=', p('applicationId')).where('environment', '=', p('environment'))
      .$if(filters.status !== undefined, (q) => q.where('status', '=', p('status')))
      .$if(filters.reference !== undefined, (q) => q.where('reference', '=', p('reference')))
      .$if(page.after !== null, (q) => q.where(afterPosition({ createdAt: p('afterCreatedAt'), id: p('afterId') })))
      .orderBy('created_at', 'desc').orderBy('id', 'desc').limit(p('limitPlusOne'));
    queries = {
      versions: prepared((k, p) => from(k, p).select(['id', 'row_version']), { bigint: true }),
      rows: prepared((k, p) => from(k, p).selectAll(), { bigint: true }),
    };
    listQueries.set(key, queries);
  }
  return queries;
}

/** Intent rows kept by their version (~0.5 KB each); cleared when full. */
const ROW_CACHE_SIZE = 5_000;

export class FundingIntentsRepo {
  /**
   * Intent rows a list read before, by id. A list reads each row's id and version from its index
   * and reads in full only the rows whose version differs from the kept row's: the version changes
   * with every write to the row (migration 019), so an equal version is the same row. Lists get copies.
   */
  private readonly rowsById = new Map<string, FundingIntentRecord>();
  private readonly sql: Sql;

  constructor(db: SqlSource) {
    this.sql = sqlOf(db);
  }

  async insertDepositAccount(account: DepositAccountRecord): Promise<void> {
    await this.sql.run(INSERT_DEPOSIT_ACCOUNT, account);
  }

  /** false when its muxed id (or address) is taken */
  async insertMuxedDepositAccount(account: DepositAccountRecord): Promise<boolean> {
    return (await this.sql.run(INSERT_MUXED_DEPOSIT, account)) === 1;
  }

  async findDepositAccount(id: string): Promise<DepositAccountRecord | undefined> {
    return this.sql.get(DEPOSIT_ACCOUNT, { id });
  }

  /**
   * What a page of intents shows besides their own rows, read for every page since any of it can
   * change: their deposit accounts, each account's registration (the provisioning transaction of
   * its watched address, null when none), and which intents have any settlement or payment row
   * (only those can show one, so only those need the settlement and payment reads). One query
   * for a retrieve, two for a list.
   */
  async pageRelations(intents: { id: string; deposit_account_id: string | null }[]): Promise<PageRelations> {
    const accounts = new Map<string, DepositAccountRecord>();
    const registrations = new Map<string, string | null>();
    const relatedIds = new Set<string>();
    const keep = ({ provision_tx_hash, ...account }: AccountWithRegistration) => {
      accounts.set(account.id, account);
      registrations.set(account.address, provision_tx_hash);
    };
    if (intents.length === 0) return { accounts, registrations, related: relatedIds };
    if (intents.length === 1) {
      const [intent] = intents as [{ id: string; deposit_account_id: string | null }];
      const row = await this.sql.get(ONE_INTENT_RELATIONS, { account: intent.deposit_account_id, intent: intent.id });
      if (row) {
        const { related: isRelated, ...account } = row;
        keep(account);
        if (isRelated) relatedIds.add(intent.id);
      }
      return { accounts, registrations, related: relatedIds };
    }
    const distinct = [...new Set(intents.map((i) => i.deposit_account_id))];
    const rows = distinct.length === 1
      ? await this.sql.all(ACCOUNT_WITH_REGISTRATION, { id: distinct[0] ?? null })
      : await this.sql.all(ACCOUNTS_WITH_REGISTRATION, { ids: distinct.filter((id): id is string => id !== null) });
    for (const row of rows) keep(row);
    for (const { id } of await this.sql.all(RELATED_OF, { ids: intents.map((i) => i.id) })) relatedIds.add(id);
    return { accounts, registrations, related: relatedIds };
  }

  /** Intents by id, in one query (amounts as BigInt). */
  async findByIds(ids: string[]): Promise<Map<string, FundingIntentRecord>> {
    const rows = await this.sql.all(INTENTS_BY_IDS, { ids: [...new Set(ids)] });
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** The version is new with the row (see migration 019). */
  async insert(intent: Omit<FundingIntentRecord, 'row_version'>): Promise<void> {
    await this.sql.run(INSERT_INTENT, { ...intent, row_version: newRowVersion() });
  }

  /** Ids of intents made before hosted links carried a secret (migration 030), a batch at a time. */
  async withoutLinkSecret(limit: number): Promise<string[]> {
    return (await this.sql.all(WITHOUT_LINK_SECRET, { limit })).map((row) => row.id);
  }

  /** Gives an intent its link secret (sealed) unless it has one; a new row version, as its link changed. */
  async setLinkSecret(id: string, secret: string): Promise<void> {
    await this.sql.run(SET_LINK_SECRET, { id, secret, version: newRowVersion() });
  }

  /** Per intent that exists, a marker that changes whenever its status, received amount or timestamp does. */
  async markers(ids: string[]): Promise<Map<string, string>> {
    const rows = await this.sql.all(INTENT_MARKERS, { ids });
    return new Map(rows.map((row) => [row.id, `${row.status}|${row.received_amount}|${row.updated_at}`]));
  }

  /** Amounts come back as BigInt: stroops can exceed 2^53. */
  async findById(id: string): Promise<FundingIntentRecord | undefined> {
    return this.sql.get(INTENT, { id });
  }

  async list(applicationId: string, environment: Environment, filters: IntentFilters, page: PageRequest): Promise<FundingIntentRecord[]> {
    const queries = listQueriesFor(filters, page);
    const args: ListArgs = { applicationId, environment, status: filters.status ?? null, reference: filters.reference ?? null,
      afterCreatedAt: page.after?.createdAt ?? null, afterId: page.after?.id ?? null, limitPlusOne: page.limit + 1 };
    const read = await this.sql.arrays(queries.versions, args) as [string, bigint][];
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
      const found = await this.sql.all(INTENTS_BY_IDS, { ids: [...missing.keys()] });
      if (this.rowsById.size + found.length > ROW_CACHE_SIZE) this.rowsById.clear();
      for (const row of found) {
        // kept with the version of this read (the list's unless the row changed in between)
        this.rowsById.set(row.id, { ...row });
        rows[missing.get(row.id)!] = row;
      }
      // a row deleted between the two reads: the page is read again as it is now
      if (found.length < missing.size) return this.sql.all(queries.rows, args);
    }
    return rows;
  }

  async setStatus(id: string, status: FundingIntentStatus, at: string): Promise<void> {
    await this.sql.run(SET_STATUS, { id, status, at });
  }

  async insertHistory(intentId: string, from: FundingIntentStatus | null, to: FundingIntentStatus, reason: string | null, at: string): Promise<void> {
    await this.sql.run(INSERT_HISTORY, { intentId, from, to, reason, at });
  }

  async history(intentId: string): Promise<HistoryRow[]> {
    return this.sql.all(HISTORY, { intentId });
  }
}
