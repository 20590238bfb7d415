/**
 * PAYMENT_DETECTED → PAYMENT_CONFIRMED: each applied payment is re-read from the network (asset,
 * amount, destination) before it counts as confirmed; the intent is confirmed once every payment
 * applied to it is.
 */
import { isoNow } from '../lib/time.js';
import type { PaymentRecord, PaymentsRepo } from '../resources/payments/repo.js';
import type { StellarNetwork } from '../stellar/index.js';
import type { PipelineIntentsRepo } from './intents-repo.js';
import type { StateMachine } from './state-machine.js';
import { verifyTransfer } from './verify.js';
import type { Sql } from '../db/sql.js';

export interface ConfirmDeps {
  sql: Sql;
  network: StellarNetwork;
  payments: PaymentsRepo;
  intents: PipelineIntentsRepo;
  machine: StateMachine;
  onConfirmed: () => void;
}

export class PaymentConfirmer {
  constructor(private readonly deps: ConfirmDeps) {}

  async claim(busy?: ReadonlySet<string>): Promise<PaymentRecord | undefined> {
    return this.deps.payments.nextToConfirm(isoNow(), busy);
  }

  async confirm(payment: PaymentRecord): Promise<void> {
    const view = await this.deps.network.getTransaction(payment.transaction_hash);
    // not visible yet (a lagging Horizon): the worker retries with backoff
    if (!view) throw new Error(`transaction ${payment.transaction_hash} not found yet`);
    const verdict = verifyTransfer(view, { destination: payment.destination_address, stellarAsset: payment.stellar_asset, amount: payment.amount }, this.deps.network.passphrase);
    await this.deps.sql.transaction(async () => (verdict.ok ? await this.confirmed(payment) : await this.rejected(payment, verdict.code, verdict.message)));
    if (verdict.ok) this.deps.onConfirmed();
  }

  private async confirmed(payment: PaymentRecord): Promise<void> {
    await this.deps.payments.markConfirmed(payment.id, isoNow());
    const intent = await this.deps.machine.load(payment.funding_intent_id);
    const waiting = (await this.deps.payments.byIntent(intent.id)).some((p) => p.status === 'DETECTED');
    if (intent.status === 'PAYMENT_DETECTED' && !waiting) await this.deps.machine.transition(intent.id, 'PAYMENT_CONFIRMED', `payment ${payment.id} verified`);
  }

  /** The announced payment is not what the ledger says: it stops counting. */
  private async rejected(payment: PaymentRecord, code: string, message: string): Promise<void> {
    const at = isoNow();
    await this.deps.payments.markFailed(payment.id, code, message, at);
    await this.deps.intents.addReceived(payment.funding_intent_id, -payment.amount, at);
    const intent = await this.deps.machine.load(payment.funding_intent_id);
    if (intent.status === 'PAYMENT_DETECTED') await this.deps.machine.transition(intent.id, 'FAILED', `payment ${payment.id} failed verification: ${code}`);
  }

  async retryLater(payment: PaymentRecord, at: string): Promise<void> {
    await this.deps.payments.retryLater(payment.id, payment.attempts + 1, at);
  }
}
