import { sql as raw } from 'kysely';
import { prepared, type Sql } from '../../db/sql.js';
import { ApiError } from '../../http/api-error.js';

/** Counted exactly at least this often per application and environment, and always near the cap. */
const RECOUNT_EVERY_MS = 2_000;
/** How far below the cap creates are counted exactly, at least: a tenth of the cap, and 64. */
const NEAR_SHARE = 0.1;
const NEAR_MIN = 64;
const MAX_TRACKED = 10_000;

/**
 * Creates near the cap take turns per application and environment on PostgreSQL (an advisory lock
 * held to the create's COMMIT), so each counts the ones committed before it; SQLite's
 * transactions take turns already (one writer). Such a create runs in a transaction of its own,
 * never in a group commit, so it holds this one lock only and other applications' creates never
 * wait for it.
 */
const CAP_TURN = prepared<unknown, { key: string }>((k, p, d) => ({
  compile: () => (d.dialect === 'postgres' ? raw`SELECT pg_advisory_xact_lock(hashtext(${p('key')}))` : raw`SELECT 1`).compile(k),
}));

/** The application's request bucket (http/rate-limit.ts): how many creates it can make at all in a while. */
export interface ApplicationRate {
  ratePerSecond: number;
  burst: number;
}

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
  /**
   * From this many open intents on, a create confirms in its own transaction. Below it a server
   * goes by a count up to two seconds old plus its own creates, and the other servers cannot have
   * made more than the application's bucket allows in that time (its burst, and three seconds of
   * its rate with a second for creates in flight): so the margin is at least that, and the cap
   * holds exactly across servers. At most half the cap, though: a rate limit raised far beyond
   * the cap (a benchmark) would otherwise send every create through its own count; there the
   * bound is what that half leaves.
   */
  private readonly nearAt: number;

  constructor(private readonly sql: Sql, private readonly max: number, rate: ApplicationRate, private readonly now: () => number = Date.now) {
    const unseen = rate.burst + rate.ratePerSecond * (RECOUNT_EVERY_MS / 1000 + 1);
    const margin = Math.max(Math.ceil(max * NEAR_SHARE), NEAR_MIN, Math.min(Math.ceil(unseen), Math.floor(max / 2)));
    this.nearAt = Math.max(0, max - margin);
  }

  /**
   * Refuses (429 RATE_LIMITED) a create that would pass the cap by the count so far; else counts
   * it. True when the create is near the cap: it must `confirm` in a transaction of its own, as
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
   * Inside the create's own transaction, before its rows: takes the application's turn and counts
   * again, so of creates racing for the last places exactly the cap's worth commit.
   */
  async confirm(applicationId: string, environment: string): Promise<void> {
    await this.sql.get(CAP_TURN, { key: `open_intents:${applicationId}:${environment}` });
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
