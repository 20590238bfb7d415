import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';

/** Keyset position: the last row of the previous page, newest first on (created_at, id). */
export interface PagePosition {
  createdAt: string;
  id: string;
}

export interface PageRequest {
  limit: number;
  after: PagePosition | null;
}

/**
 * One page of an application's rows of `table` in one environment, newest first, with one row past
 * the page (it only tells whether another page exists); the caller adds its filters.
 */
export function applicationPage(k: Kysely<any>, table: string, applicationId: string, environment: string, page: PageRequest) {
  return k.selectFrom(table).selectAll().where('application_id', '=', applicationId).where('environment', '=', environment)
    .$if(page.after !== null, (q) => q.where(afterPosition(page.after!)))
    .orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit + 1);
}

/**
 * The keyset condition of a page after `after` (newest first on created_at, id), for a Kysely
 * `where`: `created_at <= c AND (created_at < c OR id < i)`, which is `created_at < c OR
 * (created_at = c AND id < i)`. Spelled so, the index on (…, created_at, id) is read from `c` down
 * on either engine: with two separate parameters for `c` in the OR form, SQLite cannot tell they
 * are equal and scanned the index from the newest row (measured: page 1,000 of 100k, 18 ms → 0.25 ms).
 */
export function afterPosition(after: PagePosition): (eb: ExpressionBuilder<any, any>) => Expression<SqlBool> {
  return (eb) => eb.and([
    eb('created_at', '<=', after.createdAt),
    eb.or([eb('created_at', '<', after.createdAt), eb('id', '<', after.id)]),
  ]);
}

