/**
 * The observer: records each incoming payment the ledger follower (follower.ts) finds for a
 * watched deposit account once (payments.operation_id is UNIQUE) and applies it to its intent,
 * each record in its own transaction. The follower saves its cursor only after, so a crash can
 * only replay, never skip.
 */
import type { Logger } from 'pino';
import { newId } from '../lib/ids.js';
import { isoNow } from '../lib/time.js';
import type { FundingIntentRecord } from '../records/funding-intents.js';
import type { PaymentRecord, PaymentsRepo } from '../records/payments.js';
import type { AssetRef, HorizonPaymentRecord, StellarNetwork } from '../stellar/index.js';
import { asPayable } from '../records/quote-intent-link.js';
import { classify } from './classify.js';
import type { PipelineIntentsRepo } from './intents-repo.js';
import { movementsInto, type IncomingPayment } from './records.js';
import type { StateMachine } from './state-machine.js';
import type { Sql } from '../db/sql.js';
import type { PipelineMetrics } from './metrics.js';
import { fromStroops } from '../lib/money.js';
import { muxedAddress } from '../stellar/muxed.js';
import type { CollectionRepo } from './collection-repo.js';

export interface ObserverDeps {
  sql: Sql;
  network: StellarNetwork;
  networkName: string;
  payments: PaymentsRepo;
  intents: PipelineIntentsRepo;
  machine: StateMachine;
  logger: Logger;
  /** a payment was applied: wake the confirmation worker */
  onApplied: () => void;
  telemetry?: PipelineMetrics;
  /** collection accounts (muxed deposits) and their unattributed payments; absent: none exist */
  collections?: CollectionRepo;
}

export class Observer {
  constructor(private readonly deps: ObserverDeps) {}

  /** The asset an intent accepts; conversions (STELLAR_PATH_PAYMENT) arrive converted to it. */
  private expectedAsset(intent: FundingIntentRecord): AssetRef {
    return this.deps.network.assets[intent.requirement_asset as 'USDC' | 'EURC' | 'XLM'];
  }

  /** One record, in its own transaction; false when its intent is not recorded yet or it failed (retry later). */
  async handle(address: string, record: HorizonPaymentRecord): Promise<boolean> {
    try {
      // awaited here: a failed transaction is this catch's, logged with the record that caused it
      return await this.deps.sql.transaction(() => this.process(address, record));
    } catch (error) {
      this.deps.logger.error({ err: error, address, operation: record.id }, 'observer could not process a record');
      return false;
    }
  }

  private async process(address: string, record: HorizonPaymentRecord): Promise<boolean> {
    let found = await this.deps.intents.byDepositAddress(address);
    if (!found) return (await this.deps.collections?.byAddress(address)) ? this.attribute(address, record) : false;
    // one payment per movement into the account (an invocation may carry several), each on the intent as the last left it
    for (const [i, money] of movementsInto(record, address).entries()) {
      if (i > 0) found = (await this.deps.intents.byDepositAddress(address))!;
      // after an accepted quote the payer pays its source asset and amount (route executions convert it)
      await this.record(asPayable(found), record, money);
    }
    return true;
  }

  /**
   * Money into a collection account: the intent whose muxed address (its deposit account's address)
   * it was sent to, else recorded as unattributed, refundable by the operator. A muxed intent is
   * committed before its address is shown to anyone, so an unknown id is never one not seen yet.
   */
  private async attribute(address: string, record: HorizonPaymentRecord): Promise<boolean> {
    for (const money of movementsInto(record, address)) {
      const intent = money.toMuxedId === null ? undefined : await this.deps.intents.byDepositAddress(muxedAddress(address, money.toMuxedId));
      if (intent) await this.record(asPayable(intent), record, money, muxedAddress(address, money.toMuxedId!));
      else await this.recordUnattributed(address, record, money);
    }
    return true;
  }

  private async recordUnattributed(address: string, record: HorizonPaymentRecord, money: IncomingPayment): Promise<void> {
    const now = isoNow();
    const inserted = await this.deps.collections!.insertUnattributed({
      id: newId('payment'), network: this.deps.networkName, collection_address: address, asset_code: money.asset.code, stellar_asset: money.stellarAsset,
      amount: money.amount, payer_address: money.from, to_muxed_id: money.toMuxedId, transaction_hash: record.transaction_hash, operation_id: money.operationId,
      ledger: record.transaction?.ledger ?? 0, status: 'RECORDED', refund_destination: null, refund_transaction_hash: null, created_at: now, updated_at: now,
    });
    if (inserted) {
      this.deps.logger.warn({ address, operation: money.operationId, muxedId: money.toMuxedId, amount: fromStroops(money.amount), asset: money.asset.code },
        'a payment to a collection account names no known muxed id: recorded as unattributed, refundable by the operator');
    }
  }

  /** `paidTo`: the address the payer paid, a muxed intent's M… rather than the collection account behind it */
  private async record(intent: FundingIntentRecord, record: HorizonPaymentRecord, money: IncomingPayment, paidTo = money.to): Promise<void> {
    const verdict = classify(intent, money.asset, money.amount, this.expectedAsset(intent));
    const now = isoNow();
    const payment: PaymentRecord = {
      id: newId('payment'), funding_intent_id: intent.id, application_id: intent.application_id, environment: intent.environment,
      stellar_network: this.deps.networkName, asset_code: money.asset.code, stellar_asset: money.stellarAsset, amount: money.amount,
      applied_amount: verdict.apply ? verdict.applied : 0n, payer_address: money.from, destination_address: paidTo,
      transaction_hash: record.transaction_hash, operation_id: money.operationId, paging_token: record.paging_token, operation_type: record.type,
      ledger: record.transaction?.ledger ?? 0, memo_type: money.memoType, memo_value: money.memo,
      status: verdict.apply ? 'DETECTED' : 'UNAPPLIED', failure_code: verdict.apply ? null : verdict.code,
      failure_message: verdict.apply ? null : verdict.message, attempts: 0, next_attempt_at: now, detected_at: now, confirmed_at: null,
      created_at: now, updated_at: now,
    };
    if (!await this.deps.payments.insert(payment)) return;
    this.deps.sql.afterCommit(() => this.deps.telemetry?.paymentObserved({
      intent: intent.id, payment: payment.id, asset: money.asset.code, amount: fromStroops(money.amount), applied: verdict.apply, transaction: record.transaction_hash,
    }));
    if (!verdict.apply) return;
    await this.deps.intents.addReceived(intent.id, money.amount, now);
    const met = intent.received_amount + money.amount >= intent.requirement_amount;
    await this.deps.machine.transition(intent.id, met ? 'PAYMENT_DETECTED' : 'PARTIALLY_FUNDED', `payment ${payment.id} received`);
    this.deps.onApplied();
  }
}
