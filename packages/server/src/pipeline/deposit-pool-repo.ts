/** The warm pool of deposit accounts and the batches that create them (migration 014). */
import { sql as kysql } from 'kysely';
import { bindAll, dynamic, prepared, sqlOf, type Sql, type SqlSource } from '../db/sql.js';

export interface PoolAccount {
  id: number;
  network: string;
  environment: string;
  asset: string;
  address: string;
  secret_encrypted: string;
  batch_id: string;
  transaction_hash: string | null;
  created_at: string;
  activated_at: string | null;
  claimed_at: string | null;
}

export interface DepositBatch {
  id: string;
  network: string;
  environment: string;
  status: 'PENDING' | 'APPLIED' | 'FAILED';
  envelope_xdr: string | null;
  transaction_hash: string | null;
  failure_code: string | null;
  attempts: number;
  next_attempt_at: string;
  created_at: string;
  updated_at: string;
  /** the key its accounts are created with as co-signer (the treasury) */
  cosigner?: string | null;
}

/** One account a batch creates: a pool row or the PROVISIONING deposit account of a waiting intent. */
export interface BatchMember {
  kind: 'pool' | 'intent';
  address: string;
  asset: string;
  secret_encrypted: string;
}

export interface WaitingAccount {
  id: string;
  address: string;
  asset: string;
  secret_encrypted: string;
}

type Scope = { network: string; environment: string; asset: string };

// SKIP LOCKED on PostgreSQL: concurrent creates (other processes) each take a different account
// instead of queueing on the first one and then finding it claimed
const CLAIM = prepared<PoolAccount, Scope & { at: string }>((k, p, d) => k.updateTable('deposit_pool').set({ claimed_at: p('at') })
  .where('id', '=', k.selectFrom('deposit_pool').select('id').where('network', '=', p('network')).where('environment', '=', p('environment'))
    .where('asset', '=', p('asset')).where('claimed_at', 'is', null).where('activated_at', 'is not', null).orderBy('id').limit(1)
    .$if(d.dialect === 'postgres', (q) => q.forUpdate().skipLocked()))
  .where('claimed_at', 'is', null).returningAll());

const UNCLAIMED = prepared<{ n: number }, Scope>((k, p) => k.selectFrom('deposit_pool').select((eb) => eb.fn.countAll<number>().as('n'))
  .where('network', '=', p('network')).where('environment', '=', p('environment')).where('asset', '=', p('asset')).where('claimed_at', 'is', null));

const READY = prepared<{ n: number }, Scope>((k, p) => k.selectFrom('deposit_pool').select((eb) => eb.fn.countAll<number>().as('n'))
  .where('network', '=', p('network')).where('environment', '=', p('environment')).where('asset', '=', p('asset')).where('claimed_at', 'is', null)
  .where('activated_at', 'is not', null));

// Read in the order of funding_intents_by_status_created (migration 018), oldest first, stopping
// at the limit. On PostgreSQL each intent's account is a LATERAL subquery its LIMIT keeps the
// planner from flattening: one primary-key probe per intent. As a plain join, statistics taken
// while the tables were small let PostgreSQL compare every waiting intent with every waiting
// account instead (5.8 s an ask at 15,000 × 5,000, under the writer lock).
const WAITING_COLUMNS = ['da.id', 'da.address', 'da.asset', 'da.secret_encrypted'] as const;
const WAITING = prepared<WaitingAccount, { environment: string; limit: number }>((k, p, d) => {
  const intents = k.selectFrom('funding_intents as fi').where('fi.status', '=', 'CREATED');
  if (d.dialect === 'postgres') {
    return intents.innerJoinLateral((eb) => eb.selectFrom('deposit_accounts as da').select(WAITING_COLUMNS).whereRef('da.id', '=', 'fi.deposit_account_id')
      .where('da.status', '=', 'PROVISIONING').where('da.provision_batch_id', 'is', null).where('da.environment', '=', p('environment'))
      .limit(1).as('da'), (join) => join.onTrue())
      .selectAll('da').orderBy('fi.created_at').orderBy('fi.id').limit(p('limit'));
  }
  return intents.innerJoin('deposit_accounts as da', 'da.id', 'fi.deposit_account_id').select(WAITING_COLUMNS)
    .where('da.status', '=', 'PROVISIONING').where('da.provision_batch_id', 'is', null).where('da.environment', '=', p('environment'))
    .orderBy('fi.created_at').orderBy('fi.id').limit(p('limit'));
});

const BATCH_COLUMNS = ['id', 'network', 'environment', 'status', 'envelope_xdr', 'transaction_hash', 'failure_code', 'attempts', 'next_attempt_at',
  'created_at', 'updated_at', 'cosigner'] as const;
const INSERT_BATCH = prepared<never, Required<DepositBatch>>((k, p) => k.insertInto('deposit_batches').values(bindAll(p, BATCH_COLUMNS)));

const COSIGNER = prepared<{ cosigner: string | null }, { depositAccountId: string; address: string }>((k, p) => k.selectFrom('deposit_batches as b')
  .select('b.cosigner').where('b.id', '=', k.fn.coalesce(
    k.selectFrom('deposit_accounts').select('provision_batch_id').where('id', '=', p('depositAccountId')),
    k.selectFrom('deposit_pool').select('batch_id').where('address', '=', p('address')))));

const POOL_COLUMNS = ['network', 'environment', 'asset', 'address', 'secret_encrypted', 'batch_id', 'transaction_hash', 'created_at', 'activated_at',
  'claimed_at'] as const;
const INSERT_POOL_ACCOUNT = prepared<never, Omit<PoolAccount, 'id'>>((k, p) => k.insertInto('deposit_pool').values(bindAll(p, POOL_COLUMNS)));

const ASSIGN_TO_BATCH = prepared<never, { depositAccountId: string; batchId: string }>((k, p) =>
  k.updateTable('deposit_accounts').set({ provision_batch_id: p('batchId') }).where('id', '=', p('depositAccountId')));

const NEXT_PENDING = prepared<DepositBatch, { network: string; now: string }>((k, p) => k.selectFrom('deposit_batches').selectAll()
  .where('network', '=', p('network')).where('status', '=', 'PENDING').where('next_attempt_at', '<=', p('now'))
  .orderBy('created_at').orderBy('id').limit(20));

const BATCH_BY_ID = prepared<DepositBatch, { id: string }>((k, p) => k.selectFrom('deposit_batches').selectAll().where('id', '=', p('id')));

const MEMBERS = prepared<BatchMember, { id: string }>((k, p) => k.selectFrom('deposit_accounts')
  .select([kysql.lit('intent').as('kind'), 'address', 'asset', 'secret_encrypted']).where('provision_batch_id', '=', p('id'))
  .unionAll(k.selectFrom('deposit_pool').select([kysql.lit('pool').as('kind'), 'address', 'asset', 'secret_encrypted']).where('batch_id', '=', p('id')))
  .orderBy('address'));

const ACTIVATE_POOL = prepared<never, { hash: string; at: string; batchId: string }>((k, p) =>
  k.updateTable('deposit_pool').set({ transaction_hash: p('hash'), activated_at: p('at') }).where('batch_id', '=', p('batchId')));

const ACTIVATE_ACCOUNTS = prepared<{ id: string; address: string }, { at: string; batchId: string }>((k, p) =>
  k.updateTable('deposit_accounts').set({ status: 'ACTIVE', activated_at: p('at') })
    .where('provision_batch_id', '=', p('batchId')).where('status', '=', 'PROVISIONING').returning(['id', 'address']));

const INTENT_OF = prepared<{ id: string; status: string }, { depositAccountId: string }>((k, p) =>
  k.selectFrom('funding_intents').select(['id', 'status']).where('deposit_account_id', '=', p('depositAccountId')));

const DROP_POOL_KEYS = prepared<never, { batchId: string }>((k, p) => k.deleteFrom('deposit_pool').where('batch_id', '=', p('batchId')));

const UNASSIGN = prepared<never, { batchId: string }>((k, p) => k.updateTable('deposit_accounts').set({ provision_batch_id: null })
  .where('provision_batch_id', '=', p('batchId')).where('status', '=', 'PROVISIONING'));

const SUPERSEDE = prepared<never, { batchId: string; at: string }>((k, p) => k.updateTable('deposit_batches')
  .set({ status: 'FAILED', failure_code: 'superseded', updated_at: p('at') })
  .where('id', '=', p('batchId')).where('status', '=', 'PENDING').where('envelope_xdr', 'is', null));

export class DepositPoolRepo {
  private readonly sql: Sql;

  constructor(db: SqlSource) {
    this.sql = sqlOf(db);
  }

  /**
   * Takes one ready account, at most once: a single UPDATE … RETURNING, run inside the create's
   * transaction, so two creates can never get the same row.
   */
  async claim(network: string, environment: string, asset: string, at: string): Promise<PoolAccount | undefined> {
    return this.sql.get(CLAIM, { network, environment, asset, at });
  }

  /**
   * Unclaimed accounts per asset, ready or still in a pending batch (both count toward the target).
   * One count per asset, each a range of the ready index (claimed rows, which only grow, are not read).
   */
  async unclaimed(network: string, environment: string, assets: string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    for (const asset of assets) counts.set(asset, Number((await this.sql.get(UNCLAIMED, { network, environment, asset }))!.n));
    return counts;
  }

  async ready(network: string, environment: string, asset: string): Promise<number> {
    return Number((await this.sql.get(READY, { network, environment, asset }))!.n);
  }

  /**
   * PROVISIONING deposit accounts of intents still CREATED and in no batch, oldest intent first:
   * read in the order of funding_intents_by_status_created, stopping at the limit (migration 018).
   */
  async waiting(environment: string, limit: number): Promise<WaitingAccount[]> {
    return this.sql.all(WAITING, { environment, limit });
  }

  async insertBatch(batch: DepositBatch): Promise<void> {
    await this.sql.run(INSERT_BATCH, { cosigner: null, ...batch });
  }

  /** The co-signer a deposit account was created with (its batch's), or null (its own key signs). */
  async cosignerOf(depositAccountId: string, address: string): Promise<string | null> {
    return (await this.sql.get(COSIGNER, { depositAccountId, address }))?.cosigner ?? null;
  }

  async insertPoolAccount(row: Omit<PoolAccount, 'id'>): Promise<void> {
    await this.sql.run(INSERT_POOL_ACCOUNT, row);
  }

  async assignToBatch(depositAccountId: string, batchId: string): Promise<void> {
    await this.sql.run(ASSIGN_TO_BATCH, { depositAccountId, batchId });
  }

  /** The next PENDING batch due, other than those in hand. */
  async nextPending(network: string, now: string, busy: string[]): Promise<DepositBatch | undefined> {
    return (await this.sql.all(NEXT_PENDING, { network, now })).find((b) => !busy.includes(b.id));
  }

  async findBatch(id: string): Promise<DepositBatch | undefined> {
    return this.sql.get(BATCH_BY_ID, { id });
  }

  /** Members in a stable order, so a rebuilt envelope (after tx_bad_seq) carries the same accounts. */
  async members(batchId: string): Promise<BatchMember[]> {
    return this.sql.all(MEMBERS, { id: batchId });
  }

  /** Its fields vary with the step (a few updates per batch): built per call. */
  async updateBatch(id: string, fields: Partial<Pick<DepositBatch, 'status' | 'envelope_xdr' | 'transaction_hash' | 'failure_code' | 'attempts' | 'next_attempt_at'>>, at: string): Promise<void> {
    await this.sql.run(dynamic((k) => k.updateTable('deposit_batches').set({ ...fields, updated_at: at }).where('id', '=', id)));
  }

  /** The batch applied: its pool rows become claimable. */
  async activatePool(batchId: string, hash: string, at: string): Promise<void> {
    await this.sql.run(ACTIVATE_POOL, { hash, at, batchId });
  }

  /** The intents' deposit accounts the batch created: ACTIVE. Returns their ids. */
  async activateAccounts(batchId: string, at: string): Promise<{ id: string; address: string }[]> {
    return this.sql.all(ACTIVATE_ACCOUNTS, { at, batchId });
  }

  async intentOf(depositAccountId: string): Promise<{ id: string; status: string } | undefined> {
    return this.sql.get(INTENT_OF, { depositAccountId });
  }

  /** Fails a batch never built (no envelope yet); false when it was built or ended meanwhile. */
  async supersede(batchId: string, at: string): Promise<boolean> {
    return await this.sql.run(SUPERSEDE, { batchId, at }) === 1;
  }

  /** The batch failed as a whole (nothing was created): its pool keys are dropped, its intents wait for the next batch. */
  async release(batchId: string): Promise<void> {
    await this.sql.run(DROP_POOL_KEYS, { batchId });
    await this.sql.run(UNASSIGN, { batchId });
  }
}
