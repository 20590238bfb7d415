/** AWAITING_PAYMENT / PARTIALLY_FUNDED past expires_at → EXPIRED (payment.failed + invoice.overdue). */
import { isoNow } from '../lib/time.js';
import type { FundingIntentRecord } from '../records/funding-intents.js';
import type { PipelineIntentsRepo } from './intents-repo.js';
import type { StateMachine } from './state-machine.js';
import type { Sql } from '../db/sql.js';

export class Expirer {
  constructor(private readonly sql: Sql, private readonly intents: PipelineIntentsRepo, private readonly machine: StateMachine) {}

  /** The intent that expired first, passing over `waiting` (failed, backing off). */
  async claim(waiting: string[] = []): Promise<FundingIntentRecord | undefined> {
    return this.intents.nextExpired(isoNow(), waiting);
  }

  /** Re-reads inside the transaction: a payment that landed first wins. */
  async expire(id: string): Promise<boolean> {
    return this.sql.transaction(async () => {
      const intent = await this.machine.load(id);
      if (intent.status !== 'AWAITING_PAYMENT' && intent.status !== 'PARTIALLY_FUNDED') return false;
      if (intent.expires_at > isoNow()) return false;
      await this.machine.transition(id, 'EXPIRED', 'expired before the requirement was met');
      return true;
    });
  }

  /** Test helper: expire now. */
  async expireNow(id: string): Promise<boolean> {
    return this.sql.transaction(async () => {
      const intent = await this.machine.load(id);
      if (intent.status !== 'AWAITING_PAYMENT' && intent.status !== 'PARTIALLY_FUNDED') return false;
      await this.intents.setExpiresAt(id, isoNow());
      return this.expire(id);
    });
  }
}
