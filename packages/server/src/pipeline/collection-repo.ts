/**
 * Collection accounts (one per network and asset, held by the treasury: the accounts `muxed`
 * intents are paid to) and the payments into them that name no known muxed id.
 */
import { dynamic, prepared, sqlOf, type Sql, type SqlSource } from '../db/sql.js';
import { isoNow } from '../lib/time.js';

export interface CollectionAccountRow {
  network: string;
  asset: string;
  address: string;
  secret_encrypted: string;
  status: 'PROVISIONING' | 'ACTIVE';
  created_at: string;
  activated_at: string | null;
}

export interface UnattributedPaymentRow {
  id: string;
  network: string;
  collection_address: string;
  asset_code: string;
  stellar_asset: string;
  amount: bigint;
  payer_address: string;
  to_muxed_id: string | null;
  transaction_hash: string;
  operation_id: string;
  ledger: number;
  status: 'RECORDED' | 'REFUNDING' | 'REFUNDED';
  refund_destination: string | null;
  refund_transaction_hash: string | null;
  created_at: string;
  updated_at: string;
}

const FIND = prepared<CollectionAccountRow, { network: string; asset: string }>((k, p) =>
  k.selectFrom('collection_accounts').selectAll().where('network', '=', p('network')).where('asset', '=', p('asset')));

const BY_ADDRESS = prepared<CollectionAccountRow, { address: string }>((k, p) =>
  k.selectFrom('collection_accounts').selectAll().where('address', '=', p('address')));

const ALL = prepared<CollectionAccountRow, { network: string }>((k, p) =>
  k.selectFrom('collection_accounts').selectAll().where('network', '=', p('network')).orderBy('asset'));

// the first server to insert makes the account; the others find its row
const INSERT = prepared<never, Omit<CollectionAccountRow, 'activated_at'>>((k, p) => k.insertInto('collection_accounts')
  .values({ network: p('network'), asset: p('asset'), address: p('address'), secret_encrypted: p('secret_encrypted'), status: p('status'), created_at: p('created_at') })
  .onConflict((oc) => oc.doNothing()));

const ACTIVATE = prepared<never, { network: string; asset: string; at: string }>((k, p) => k.updateTable('collection_accounts')
  .set({ status: 'ACTIVE', activated_at: p('at') }).where('network', '=', p('network')).where('asset', '=', p('asset')));

const INSERT_UNATTRIBUTED = prepared<never, UnattributedPaymentRow>((k, p) => k.insertInto('unattributed_payments').values({
  id: p('id'), network: p('network'), collection_address: p('collection_address'), asset_code: p('asset_code'), stellar_asset: p('stellar_asset'),
  amount: p('amount'), payer_address: p('payer_address'), to_muxed_id: p('to_muxed_id'), transaction_hash: p('transaction_hash'),
  operation_id: p('operation_id'), ledger: p('ledger'), status: p('status'), refund_destination: p('refund_destination'),
  refund_transaction_hash: p('refund_transaction_hash'), created_at: p('created_at'), updated_at: p('updated_at'),
}).onConflict((oc) => oc.column('operation_id').doNothing()));

const UNATTRIBUTED = prepared<UnattributedPaymentRow, { id: string }>((k, p) =>
  k.selectFrom('unattributed_payments').selectAll().where('id', '=', p('id')), { bigint: true });

const LIST_UNATTRIBUTED = prepared<UnattributedPaymentRow, { limit: number }>((k, p) =>
  k.selectFrom('unattributed_payments').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(p('limit')), { bigint: true });

// guarded: of two operators (or servers) refunding at once, one claims it
const CLAIM_REFUND = prepared<never, { id: string; destination: string; at: string }>((k, p) => k.updateTable('unattributed_payments')
  .set({ status: 'REFUNDING', refund_destination: p('destination'), updated_at: p('at') }).where('id', '=', p('id')).where('status', '=', 'RECORDED'));

const FINISH_REFUND = prepared<never, { id: string; status: string; hash: string | null; at: string }>((k, p) => k.updateTable('unattributed_payments')
  .set({ status: p('status'), refund_transaction_hash: p('hash'), updated_at: p('at') }).where('id', '=', p('id')).where('status', '=', 'REFUNDING'));

export class CollectionRepo {
  private readonly sql: Sql;

  constructor(db: SqlSource) {
    this.sql = sqlOf(db);
  }

  async find(network: string, asset: string): Promise<CollectionAccountRow | undefined> {
    return this.sql.get(FIND, { network, asset });
  }

  async byAddress(address: string): Promise<CollectionAccountRow | undefined> {
    return this.sql.get(BY_ADDRESS, { address });
  }

  async all(network: string): Promise<CollectionAccountRow[]> {
    return this.sql.all(ALL, { network });
  }

  /** false when another server's row is already there */
  async insert(row: Omit<CollectionAccountRow, 'activated_at'>): Promise<boolean> {
    return (await this.sql.run(INSERT, row)) === 1;
  }

  async activate(network: string, asset: string): Promise<void> {
    await this.sql.run(ACTIVATE, { network, asset, at: isoNow() });
  }

  /** Of `addresses`, the collection accounts (the ledger follower's lookup, with the deposit accounts'). */
  async among(addresses: string[]): Promise<Set<string>> {
    if (addresses.length === 0) return new Set();
    const rows = await this.sql.all(dynamic<{ address: string }>((k) => k.selectFrom('collection_accounts').select('address').where('address', 'in', addresses)));
    return new Set(rows.map((r) => r.address));
  }

  /** false when the operation was recorded before (a replayed ledger) */
  async insertUnattributed(row: UnattributedPaymentRow): Promise<boolean> {
    return (await this.sql.run(INSERT_UNATTRIBUTED, row)) === 1;
  }

  async unattributed(id: string): Promise<UnattributedPaymentRow | undefined> {
    return this.sql.get(UNATTRIBUTED, { id });
  }

  async listUnattributed(limit: number): Promise<UnattributedPaymentRow[]> {
    return this.sql.all(LIST_UNATTRIBUTED, { limit });
  }

  async claimRefund(id: string, destination: string): Promise<boolean> {
    return (await this.sql.run(CLAIM_REFUND, { id, destination, at: isoNow() })) === 1;
  }

  async finishRefund(id: string, ok: boolean, hash: string | null): Promise<void> {
    await this.sql.run(FINISH_REFUND, { id, status: ok ? 'REFUNDED' : 'RECORDED', hash, at: isoNow() });
  }
}
