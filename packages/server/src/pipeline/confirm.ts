/**
 * PAYMENT_DETECTED → PAYMENT_CONFIRMED: the intent is confirmed once every payment applied to it
 * is. No second request to the network: the ledger follower read each payment from a closed
 * ledger, and a closed ledger is final on Stellar (the record's asset, amount and destination are
 * the ledger's). Before the follower, each payment was re-read with getTransaction: one more
 * request per payment against the public Horizon's 3,600 an hour.
 */
import { isoNow } from '../lib/time.js';
import type { PaymentRecord, PaymentsRepo } from '../records/payments.js';
import type { StateMachine } from './state-machine.js';
import type { Sql } from '../db/sql.js';

export interface ConfirmDeps {
  sql: Sql;
  payments: PaymentsRepo;
  machine: StateMachine;
  onConfirmed: () => void;
}

export class PaymentConfirmer {
  constructor(private readonly deps: ConfirmDeps) {}

  async claim(busy?: ReadonlySet<string>): Promise<PaymentRecord | undefined> {
    return this.deps.payments.nextToConfirm(isoNow(), busy);
  }

  async confirm(payment: PaymentRecord): Promise<void> {
    await this.deps.sql.transaction(() => this.confirmed(payment));
    this.deps.onConfirmed();
  }

  private async confirmed(payment: PaymentRecord): Promise<void> {
    await this.deps.payments.markConfirmed(payment.id, isoNow());
    const intent = await this.deps.machine.load(payment.funding_intent_id);
    const waiting = (await this.deps.payments.byIntent(intent.id)).some((p) => p.status === 'DETECTED');
    if (intent.status === 'PAYMENT_DETECTED' && !waiting) await this.deps.machine.transition(intent.id, 'PAYMENT_CONFIRMED', `payment ${payment.id} verified`);
  }

  async retryLater(payment: PaymentRecord, at: string): Promise<void> {
    await this.deps.payments.retryLater(payment.id, payment.attempts + 1, at);
  }
}
