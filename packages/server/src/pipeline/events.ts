/**
 * Event payloads exactly as the spec's PaymentEventData / PayoutEventData / RefundEventData:
 * numbers where INTERFACE.md says number, the exact decimal strings beside them.
 */
import { insertEvent } from '../db/outbox.js';
import { fromStroops, toNumber } from '../lib/money.js';
import type { FundingIntentRecord } from '../records/funding-intents.js';
import type { PaymentsRepo } from '../records/payments.js';
import type { RefundRecord } from '../records/refunds.js';
import type { SettlementRecord, SettlementsRepo } from '../records/settlements.js';
import type { Sql } from '../db/sql.js';
import type { PipelineMetrics } from './metrics.js';

export class EventWriter {
  constructor(
    private readonly sql: Sql,
    private readonly payments: PaymentsRepo,
    private readonly settlements: SettlementsRepo,
    /** counts and logs payouts and refunds once their transaction committed */
    private readonly telemetry: PipelineMetrics | null = null,
  ) {}

  /** The latest relevant Stellar transaction: the settlement transfer, else the latest applied payment. */
  private async latestHash(intent: FundingIntentRecord, settlement: SettlementRecord | undefined): Promise<string | null> {
    if (settlement?.transfer_transaction_hash) return settlement.transfer_transaction_hash;
    const applied = (await this.payments.byIntent(intent.id)).filter((p) => p.status === 'CONFIRMED' || p.status === 'DETECTED');
    return applied.at(-1)?.transaction_hash ?? null;
  }

  async paymentData(intent: FundingIntentRecord) {
    const settlement = await this.settlements.byIntent(intent.id);
    const settled = settlement && settlement.status !== 'FAILED' ? settlement.destination_amount : 0n;
    return {
      payment_id: intent.id,
      funding_intent_id: intent.id,
      status: intent.status,
      reference: intent.reference,
      amount: toNumber(intent.requirement_amount),
      amount_decimal: fromStroops(intent.requirement_amount),
      currency: intent.requirement_asset,
      settlement_amount: toNumber(settled),
      settlement_amount_decimal: fromStroops(settled),
      settlement_asset: intent.destination_asset,
      stellar_txn_hash: await this.latestHash(intent, settlement),
      metadata: JSON.parse(intent.metadata) as Record<string, unknown>,
    };
  }

  async intentEvent(type: string, intent: FundingIntentRecord): Promise<void> {
    await insertEvent(this.sql, { type, applicationId: intent.application_id, environment: intent.environment, data: await this.paymentData(intent) });
  }

  async payout(type: 'payout.initiated' | 'payout.completed' | 'payout.failed', s: SettlementRecord, metadata: string): Promise<void> {
    const outcome = type === 'payout.initiated' ? 'submitted' : type === 'payout.completed' ? 'confirmed' : 'failed';
    this.sql.afterCommit(() => this.telemetry?.settlement(outcome, {
      intent: s.funding_intent_id, settlement: s.id, transaction: s.transfer_transaction_hash, ...(s.failure_code ? { code: s.failure_code } : {}),
    }));
    await insertEvent(this.sql, {
      type, applicationId: s.application_id, environment: s.environment,
      data: {
        settlement_id: s.id, funding_intent_id: s.funding_intent_id, amount: toNumber(s.destination_amount),
        amount_decimal: fromStroops(s.destination_amount), asset: s.destination_asset, destination_address: s.destination_address,
        stellar_txn_hash: s.transfer_transaction_hash, status: s.status,
        failure: s.failure_code ? { code: s.failure_code, message: s.failure_message ?? '' } : null,
        metadata: JSON.parse(metadata) as Record<string, unknown>,
      },
    });
  }

  async refund(type: 'refund.created' | 'refund.completed' | 'refund.failed', r: RefundRecord): Promise<void> {
    if (type !== 'refund.created') {
      this.sql.afterCommit(() => this.telemetry?.refund(type === 'refund.completed' ? 'completed' : 'failed', {
        refund: r.id, intent: r.funding_intent_id, transaction: r.transaction_hash, ...(r.failure_code ? { code: r.failure_code } : {}),
      }));
    }
    await insertEvent(this.sql, {
      type, applicationId: r.application_id, environment: r.environment,
      data: {
        refund_id: r.id, funding_intent_id: r.funding_intent_id, payment_id: r.payment_id, amount: toNumber(r.amount),
        amount_decimal: fromStroops(r.amount), asset: r.asset_code, reason: r.reason, status: r.status,
        destination_address: r.destination_address, stellar_txn_hash: r.transaction_hash,
        failure: r.failure_code ? { code: r.failure_code, message: r.failure_message ?? '' } : null,
      },
    });
  }
}
