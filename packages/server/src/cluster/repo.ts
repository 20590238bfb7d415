/** What server processes sharing one database keep there to coordinate (migration 021). */
import { prepared, sqlOf, type SqlSource, type Sql } from '../db/sql.js';

export interface InstanceRecord {
  id: string;
  host: string;
  pid: number;
  started_at: string;
  heartbeat_at: string;
}

const REGISTER = prepared<never, InstanceRecord>((k, p) => k.insertInto('server_instances')
  .values({ id: p('id'), host: p('host'), pid: p('pid'), started_at: p('started_at'), heartbeat_at: p('heartbeat_at') }));

const HEARTBEAT = prepared<never, { id: string; at: string }>((k, p) =>
  k.updateTable('server_instances').set({ heartbeat_at: p('at') }).where('id', '=', p('id')));

const DEREGISTER = prepared<never, { id: string }>((k, p) => k.deleteFrom('server_instances').where('id', '=', p('id')));

/** Instances silent since `before` are gone: their rows go, whoever notices first. */
const FORGET_SILENT = prepared<never, { before: string }>((k, p) => k.deleteFrom('server_instances').where('heartbeat_at', '<', p('before')));

const ON_HOST = prepared<{ id: string; pid: number }, { host: string }>((k, p) =>
  k.selectFrom('server_instances').select(['id', 'pid']).where('host', '=', p('host')));


/**
 * Takes the lease `name` for `owner`, or keeps it: it is free, already the owner's, or held by a
 * server silent since `since`. One statement, so two servers can never both take it.
 */
const ACQUIRE_LEASE = prepared<never, { name: string; owner: string; at: string; since: string }>((k, p) => k.insertInto('leases')
  .values({ name: p('name'), owner: p('owner'), acquired_at: p('at') })
  .onConflict((oc) => oc.column('name').doUpdateSet((eb) => ({
    owner: eb.ref('excluded.owner'),
    acquired_at: eb.case().when('leases.owner', '=', eb.ref('excluded.owner')).then(eb.ref('leases.acquired_at')).else(eb.ref('excluded.acquired_at')).end(),
  })).where((eb) => eb.or([
    eb('leases.owner', '=', eb.ref('excluded.owner')),
    eb.not(eb.exists(eb.selectFrom('server_instances as s').select('s.id').whereRef('s.id', '=', 'leases.owner').where('s.heartbeat_at', '>=', p('since')))),
  ]))));

const RELEASE_LEASE = prepared<never, { name: string; owner: string }>((k, p) =>
  k.deleteFrom('leases').where('name', '=', p('name')).where('owner', '=', p('owner')));

const LEASE_HOLDER = prepared<{ owner: string }, { name: string }>((k, p) => k.selectFrom('leases').select('owner').where('name', '=', p('name')));

interface Bucket {
  milli_tokens: number;
  refilled_at: number;
}

const ENSURE_BUCKET = prepared<never, { key: string } & Bucket>((k, p) => k.insertInto('rate_limit_buckets')
  .values({ key: p('key'), milli_tokens: p('milli_tokens'), refilled_at: p('refilled_at') })
  .onConflict((oc) => oc.column('key').doNothing()));

/** Locked to the transaction's end on PostgreSQL: processes taking from one bucket take turns. */
const BUCKET = prepared<Bucket, { key: string }>((k, p, d) => {
  const query = k.selectFrom('rate_limit_buckets').select(['milli_tokens', 'refilled_at']).where('key', '=', p('key'));
  return d.dialect === 'postgres' ? query.forUpdate() : query;
});

const SAVE_BUCKET = prepared<never, { key: string } & Bucket>((k, p) => k.insertInto('rate_limit_buckets')
  .values({ key: p('key'), milli_tokens: p('milli_tokens'), refilled_at: p('refilled_at') })
  .onConflict((oc) => oc.column('key').doUpdateSet((eb) => ({ milli_tokens: eb.ref('excluded.milli_tokens'), refilled_at: eb.ref('excluded.refilled_at') }))));

export interface TokenGrant {
  /** tokens taken (0: none left) */
  granted: number;
  /** when none were left: milliseconds until the next whole token */
  waitMs: number;
}

export class ClusterRepo {
  private readonly sql: Sql;

  constructor(db: SqlSource) {
    this.sql = sqlOf(db);
  }

  async register(instance: InstanceRecord): Promise<void> {
    await this.sql.run(REGISTER, instance);
  }

  /** False when the row is gone (another instance took this one for dead). */
  async heartbeat(id: string, at: string): Promise<boolean> {
    return (await this.sql.run(HEARTBEAT, { id, at })) === 1;
  }

  async deregister(id: string): Promise<void> {
    await this.sql.run(DEREGISTER, { id });
  }

  async forgetSilent(before: string): Promise<number> {
    return this.sql.run(FORGET_SILENT, { before });
  }

  async onHost(host: string): Promise<Array<{ id: string; pid: number }>> {
    return this.sql.all(ON_HOST, { host });
  }

  /** Whether `owner` holds the lease `name` now (taken or kept). */
  async acquireLease(name: string, owner: string, at: string, since: string): Promise<boolean> {
    return (await this.sql.run(ACQUIRE_LEASE, { name, owner, at, since })) === 1;
  }

  async releaseLease(name: string, owner: string): Promise<void> {
    await this.sql.run(RELEASE_LEASE, { name, owner });
  }

  async leaseHolder(name: string): Promise<string | null> {
    return (await this.sql.get(LEASE_HOLDER, { name }))?.owner ?? null;
  }

  /**
   * Takes up to `want` tokens from the shared bucket `key` (rate per second, burst), refilled for
   * the time since it was last touched. One transaction: processes taking from one bucket at once
   * take turns (SQLite's single writer; `FOR UPDATE` on PostgreSQL).
   */
  async takeTokens(key: string, now: number, want: number, ratePerSecond: number, burst: number): Promise<TokenGrant> {
    const full = burst * 1000;
    return this.sql.transaction(async (): Promise<TokenGrant> => {
      // a full bucket for a new key first, so that there is a row to lock
      await this.sql.run(ENSURE_BUCKET, { key, milli_tokens: full, refilled_at: now });
      const bucket = (await this.sql.get(BUCKET, { key }))!;
      // tokens/s × ms = thousandths of a token: integers, exact
      const milli = Math.min(full, bucket.milli_tokens + Math.max(0, now - bucket.refilled_at) * ratePerSecond);
      const granted = Math.min(want, Math.floor(milli / 1000));
      const left = milli - granted * 1000;
      await this.sql.run(SAVE_BUCKET, { key, milli_tokens: left, refilled_at: Math.max(now, bucket.refilled_at) });
      return { granted, waitMs: granted > 0 ? 0 : Math.ceil((1000 - left) / ratePerSecond) };
    }, { selfLocking: true });
  }
}
