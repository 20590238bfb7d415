import { sql as raw } from 'kysely';
import { prepared, type Sql } from '../../db/sql.js';
import { ApiError } from '../../http/api-error.js';

/** Counted exactly at least this often per application and environment, and always near the cap. */
const RECOUNT_EVERY_MS = 2_000;
/** Below this share of the cap a server counts its own creates since the last count instead of counting again. */
const NEAR_CAP = 0.9;
const MAX_TRACKED = 10_000;

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
 * in the database (every server's intents), exactly once near the cap; far below it, a server
 * adds its own creates to a count at most two seconds old, so most creates cost no count.
 */
export class OpenIntentsCap {
  private readonly known = new Map<string, { count: number; at: number }>();

  constructor(private readonly sql: Sql, private readonly max: number, private readonly now: () => number = Date.now) {}

  /** Refuses (429 RATE_LIMITED) a create that would pass the cap; else counts it. */
  async admit(applicationId: string, environment: string): Promise<void> {
    const key = `${applicationId}:${environment}`;
    const now = this.now();
    const known = this.known.get(key);
    if (known && now - known.at < RECOUNT_EVERY_MS && known.count + 1 < this.max * NEAR_CAP) {
      known.count++;
      return;
    }
    const row = await this.sql.get(COUNT_OPEN, { applicationId, environment, limit: this.max });
    const open = Number(row?.n ?? 0);
    if (open >= this.max) {
      throw new ApiError('RATE_LIMITED', `this application has ${this.max.toLocaleString('en')} open unpaid funding intents in ${environment}, the most allowed (FUNDKIT_MAX_OPEN_INTENTS); cancel the ones that will not be paid, or wait for them to be paid or expire`, { retryAfterSeconds: 60 });
    }
    if (this.known.size >= MAX_TRACKED) this.known.clear();
    this.known.set(key, { count: open + 1, at: now });
  }
}
