/** The pipeline's queries over funding intents (the core repo keeps the CRUD). */
import { prepared, sqlOf, type Sql, type SqlSource } from '../db/sql.js';
import type { FundingIntentRecord } from '../records/funding-intents.js';

const ADD_RECEIVED = prepared<never, { id: string; amount: bigint; at: string }>((k, p) => k.updateTable('funding_intents')
  .set((eb) => ({ received_amount: eb('received_amount', '+', p('amount')), updated_at: p('at') })).where('id', '=', p('id')));

const SET_EXPIRES_AT = prepared<never, { id: string; at: string }>((k, p) =>
  k.updateTable('funding_intents').set({ expires_at: p('at'), updated_at: p('at') }).where('id', '=', p('id')));

const NEXT_EXPIRED = prepared<FundingIntentRecord, { now: string; except: string[] }>((k, p, d) => k.selectFrom('funding_intents').selectAll()
  .where('status', 'in', ['AWAITING_PAYMENT', 'PARTIALLY_FUNDED']).where('expires_at', '<=', p('now'))
  .where((eb) => eb.not(d.oneOf('id', p('except')))).orderBy('expires_at').orderBy('id').limit(1), { bigint: true });

const NEXT_TO_SETTLE = prepared<FundingIntentRecord, { busyIntents: string[] }>((k, p, d) => k.selectFrom('funding_intents as fi').selectAll('fi')
  .where((eb) => eb.and([
    eb.not(d.oneOf('fi.id', p('busyIntents'))),
    eb.or([
      eb.and([eb('fi.status', '=', 'PAYMENT_CONFIRMED'), eb('fi.route_type', '<>', 'STELLAR_PATH_PAYMENT')]),
      eb.and([eb('fi.status', '=', 'ROUTING'), eb.exists(eb.selectFrom('route_executions as r').select(eb.lit(1).as('one'))
        .whereRef('r.quote_id', '=', 'fi.quote_id').where('r.status', '=', 'SUCCEEDED'))]),
    ]),
    eb.not(eb.exists(eb.selectFrom('settlements as s').select(eb.lit(1).as('one')).whereRef('s.funding_intent_id', '=', 'fi.id'))),
  ])).orderBy('fi.updated_at').orderBy('fi.id').limit(1), { bigint: true });

const BY_ID = prepared<FundingIntentRecord, { id: string }>((k, p) =>
  k.selectFrom('funding_intents').selectAll().where('id', '=', p('id')), { bigint: true });

const BY_DEPOSIT_ADDRESS = prepared<FundingIntentRecord, { address: string }>((k, p) => k.selectFrom('funding_intents as fi')
  .innerJoin('deposit_accounts as da', 'da.id', 'fi.deposit_account_id').selectAll('fi').where('da.address', '=', p('address')), { bigint: true });

export class PipelineIntentsRepo {
  private readonly sql: Sql;

  constructor(db: SqlSource) {
    this.sql = sqlOf(db);
  }

  async addReceived(id: string, amount: bigint, at: string): Promise<void> {
    await this.sql.run(ADD_RECEIVED, { id, amount, at });
  }

  async setExpiresAt(id: string, at: string): Promise<void> {
    await this.sql.run(SET_EXPIRES_AT, { id, at });
  }

  /** Open intents past their expiry. */
  async nextExpired(now: string, except: string[] = []): Promise<FundingIntentRecord | undefined> {
    return this.sql.get(NEXT_EXPIRED, { now, except });
  }

  /**
   * The next confirmed intent without a settlement yet (a converted one once its route execution
   * succeeded), skipping `busy` (intents whose settlement is being opened right now): without the
   * skip, claims stopped at the first one until its opening committed, so a burst was opened one
   * at a time.
   */
  async nextToSettle(busy: ReadonlySet<string> = new Set()): Promise<FundingIntentRecord | undefined> {
    return this.sql.get(NEXT_TO_SETTLE, { busyIntents: [...busy] });
  }

  async byId(id: string): Promise<FundingIntentRecord | undefined> {
    return this.sql.get(BY_ID, { id });
  }

  async byDepositAddress(address: string): Promise<FundingIntentRecord | undefined> {
    return this.sql.get(BY_DEPOSIT_ADDRESS, { address });
  }
}
