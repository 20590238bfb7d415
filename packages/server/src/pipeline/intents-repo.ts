/** The pipeline's queries over funding intents (the core repo keeps the CRUD). */
import type { Db } from '../db/connection.js';
import type { FundingIntentRecord } from '../resources/funding-intents/repo.js';

export class PipelineIntentsRepo {
  constructor(private readonly db: Db) {}

  addReceived(id: string, amount: bigint, at: string): void {
    this.db.prepare('UPDATE funding_intents SET received_amount = received_amount + ?, updated_at = ? WHERE id = ?').run(amount, at, id);
  }

  setExpiresAt(id: string, at: string): void {
    this.db.prepare('UPDATE funding_intents SET expires_at = ?, updated_at = ? WHERE id = ?').run(at, at, id);
  }

  /** Open intents past their expiry. */
  nextExpired(now: string, except: string[] = []): FundingIntentRecord | undefined {
    return this.db.prepare(`SELECT * FROM funding_intents WHERE status IN ('AWAITING_PAYMENT', 'PARTIALLY_FUNDED') AND expires_at <= ?
        AND id NOT IN (SELECT value FROM json_each(?)) ORDER BY expires_at, id LIMIT 1`)
      .safeIntegers(true).get(now, JSON.stringify(except)) as FundingIntentRecord | undefined;
  }

  /** Confirmed intents without a settlement yet; a converted one once its route execution succeeded. */
  nextToSettle(): FundingIntentRecord | undefined {
    return this.db.prepare(`SELECT * FROM funding_intents fi WHERE ((status = 'PAYMENT_CONFIRMED' AND route_type <> 'STELLAR_PATH_PAYMENT')
        OR (status = 'ROUTING' AND EXISTS (SELECT 1 FROM route_executions r WHERE r.quote_id = fi.quote_id AND r.status = 'SUCCEEDED')))
      AND NOT EXISTS (SELECT 1 FROM settlements s WHERE s.funding_intent_id = fi.id) ORDER BY updated_at, id LIMIT 1`)
      .safeIntegers(true).get() as FundingIntentRecord | undefined;
  }

  byId(id: string): FundingIntentRecord | undefined {
    return this.db.prepare('SELECT * FROM funding_intents WHERE id = ?').safeIntegers(true).get(id) as FundingIntentRecord | undefined;
  }

  byDepositAddress(address: string): FundingIntentRecord | undefined {
    return this.db.prepare('SELECT fi.* FROM funding_intents fi JOIN deposit_accounts da ON da.id = fi.deposit_account_id WHERE da.address = ?')
      .safeIntegers(true).get(address) as FundingIntentRecord | undefined;
  }
}
