/**
 * An accepted quote holds until `lock_expires_at` (30 minutes, or the intent's expiry). If no money
 * arrived by then, the quote EXPIRES and the intent goes back to its requirement: a payment in the
 * old source asset after that is a wrong-asset payment, recorded and refundable like any other.
 */
import { isoNow } from '../../lib/time.js';
import type { ExecutionsRepo } from '../../records/route-executions.js';
import type { QuoteIntentsRepo } from '../../records/quote-intent-link.js';
import type { QuotesRepo } from '../../records/quotes.js';
import type { Sql } from '../../db/sql.js';

export async function lapseLocks(sql: Sql, quotes: QuotesRepo, intents: QuoteIntentsRepo, executions: ExecutionsRepo): Promise<void> {
  const now = isoNow();
  for (const quote of await quotes.lapsedLocks(now)) {
    await sql.transaction(async () => {
      // re-checked inside the transaction: a payment applied meanwhile keeps the lock
      if (!(await quotes.lapsedLocks(now)).some((q) => q.id === quote.id)) return;
      await quotes.setStatus(quote.id, 'EXPIRED', now);
      await executions.deleteUnstarted(quote.funding_intent_id!, '');
      await intents.clearSource(quote.funding_intent_id!, now);
    });
  }
}
