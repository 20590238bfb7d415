import { sql as raw } from 'kysely';
import { prepared, type Sql } from '../../db/sql.js';
import { ApiError } from '../../http/api-error.js';

/** Counted exactly at least this often per application and environment, and always near the cap. */
const RECOUNT_EVERY_MS = 2_000;
/**
 * How far below the cap creates are counted exactly, in their own transactions: a tenth of the
 * cap, and at least 64 (creates in flight on every server, which no count outside them sees).
 */
const NEAR_SHARE = 0.1;
const NEAR_MIN = 64;
const MAX_TRACKED = 10_000;

/**
 * Creates near the cap take turns on PostgreSQL (an advisory lock held to the create's COMMIT),
 * so each counts the ones committed before it; SQLite's transactions take turns already (one
 * writer). One lock for every application, not one each: a group commit holds the creates of
 * several applications in one transaction, and locks taken in different orders by two groups
 * would deadlock. Only creates near a cap take it. Key 'funi' (see db/postgres-sql.ts for the others).
 */
const CAP_TURN_KEY = 0x66756e69;
const CAP_TURN = prepared<unknown>((k, _p, d) => ({
  compile: () => (d.dialect === 'postgres' ? raw`SELECT pg_advisory_xact_lock(${raw.lit(CAP_TURN_KEY)})` : raw`SELECT 1`).compile(k),
}));

// the literal statuses match the partial index funding_intents_open (migration 028)
const COUNT_OPEN = prepared<{ n: number | string }, { applicationId: string; environment: string; limit: number }>((k, p) => k
  .selectFrom(k.selectFrom('funding_intents').select(raw<number>`1`.as('one'))
    .where('application_id', '=', p('applicationId')).where('environment', '=', p('environment'))
    .where(raw<boolean>`status IN ('CREATED', 'AWAITING_PAYMENT')`).limit(p('limit')).as('open'))
  .select((eb) => eb.fn.countAll().as('n')));

/**
 * The cap on an application's open unpaid intents (CREATED or AWAITING_PAYMENT) per environment:
 * each holds a deposit account whose reserves the treasury sponsors (1.5–2 XLM), so sign-ups
 * opening intents they never pay could otherwise lock the treasury up for every merchant. Counted
 * in the database (every server's intents); near the cap exactly, again inside each create's own
 * transaction (`confirm`); far below it, a server adds its own creates to a count at most two
 * seconds old, so most creates cost no count.
 */
export class OpenIntentsCap {
  private readonly known = new Map<string, { count: number; at: number }>();
  /** From this many open intents on, a create confirms in its own transaction. */
  private readonly nearAt: number;

  constructor(private readonly sql: Sql, private readonly max: number, private readonly now: () => number = Date.now) {
    this.nearAt = Math.max(0, max - Math.max(Math.ceil(max * NEAR_SHARE), NEAR_MIN));
  }

  /**
   * Refuses (429 RATE_LIMITED) a create that would pass the cap by the count so far; else counts
   * it. True when the create is near the cap: it must `confirm` in its own transaction, as
   * creates on every server run at once and a count outside their transactions sees none of
   * those not yet committed.
   */
  async admit(applicationId: string, environment: string): Promise<boolean> {
    const key = `${applicationId}:${environment}`;
    const now = this.now();
    const known = this.known.get(key);
    if (known && now - known.at < RECOUNT_EVERY_MS && known.count + 1 < this.nearAt) {
      known.count++;
      return false;
    }
    const open = await this.count(applicationId, environment);
    if (this.known.size >= MAX_TRACKED) this.known.clear();
    this.known.set(key, { count: open + 1, at: now });
    return open + 1 >= this.nearAt;
  }

  /**
   * Inside the create's transaction, before its rows: takes the turn of creates near a cap and counts
   * again, so of creates racing for the last places exactly the cap's worth commit.
   */
  async confirm(applicationId: string, environment: string): Promise<void> {
    await this.sql.get(CAP_TURN);
    await this.count(applicationId, environment);
  }

  private async count(applicationId: string, environment: string): Promise<number> {
    const row = await this.sql.get(COUNT_OPEN, { applicationId, environment, limit: this.max });
    const open = Number(row?.n ?? 0);
    if (open >= this.max) {
      throw new ApiError('RATE_LIMITED', `this application has ${this.max.toLocaleString('en')} open unpaid funding intents in ${environment}, the most allowed (FUNDKIT_MAX_OPEN_INTENTS); cancel the ones that will not be paid, or wait for them to be paid or expire`, { retryAfterSeconds: 60 });
    }
    return open;
  }
}
