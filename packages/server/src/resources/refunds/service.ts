import { ApiError, notFound } from '../../http/api-error.js';
import { toList } from '../../http/pagination.js';
import type { PageRequest } from '../../domain/page.js';
import { newId } from '../../lib/ids.js';
import { fromStroops } from '../../lib/money.js';
import { isoNow } from '../../lib/time.js';
import type { EventWriter } from '../../pipeline/events.js';
import { postJournal } from '../../pipeline/ledger-journal.js';
import { coversIntent, inProgress, refundableAmount, settledRemaining } from '../../pipeline/refundable.js';
import type { StateMachine } from '../../pipeline/state-machine.js';
import type { FundingIntentRecord, IntentOwnership } from '../../records/funding-intents.js';
import type { Caller } from '../../domain/caller.js';
import type { PipelineIntentsRepo } from '../../pipeline/intents-repo.js';
import type { LedgerRepo } from '../../records/ledger.js';
import type { PaymentRecord, PaymentsRepo } from '../../records/payments.js';
import { presentRefund } from './present.js';
import type { RefundFilters, RefundRecord, RefundsRepo } from '../../records/refunds.js';
import { checkDestination, checkMemo, type MemoInput } from './rules.js';
import type { Sql } from '../../db/sql.js';

export interface CreateRefundInput {
  reason: string;
  destination_address?: string;
  destination_memo?: MemoInput;
}

export interface RefundsDeps {
  sql: Sql;
  repo: RefundsRepo;
  payments: PaymentsRepo;
  ledger: LedgerRepo;
  fundingIntents: IntentOwnership;
  /** received_amount, for an underpayment refunded on its own */
  intents: PipelineIntentsRepo;
  machine: StateMachine;
  events: EventWriter;
  /** wake the payout worker */
  nudge: () => void;
  /** ROUTE_REMAINDER: the source funds a conversion left of a payment */
  routeRemainder: (intent: FundingIntentRecord, payment: PaymentRecord) => Promise<bigint>;
  /** a refund may give up a FAILED/PAUSED conversion */
  conversions: Conversions;
  /** the network can pay a contract (C…) destination: a SAC transfer, simulated over Stellar RPC */
  payContracts?: boolean;
}

type Plan = { source: 'DEPOSIT' | 'BALANCE'; amount: bigint };

/** The intent's conversion, as a refund needs it (the route executions' ConversionGate). */
export interface Conversions {
  status(intentId: string): Promise<'PENDING' | 'RUNNING' | 'PAUSED' | 'SUCCEEDED' | 'FAILED' | null>;
  abandon(intentId: string, cause?: string): Promise<void>;
}

/** The reasons that may give up a stalled conversion: the merchant's call, or the conversion failed. */
const GIVE_UP_REASONS = ['SETTLEMENT_FAILED', 'MANUAL'];

export class RefundsService {
  constructor(private readonly deps: RefundsDeps) {}

  private async payment(caller: Caller, intentId: string, paymentId: string): Promise<{ intent: FundingIntentRecord; payment: PaymentRecord }> {
    const intent = await this.deps.fundingIntents.load(caller, intentId);
    const payment = await this.deps.payments.findById(paymentId);
    if (!payment || payment.funding_intent_id !== intent.id) throw notFound('payment');
    return { intent, payment };
  }

  async create(caller: Caller, intentId: string, paymentId: string, input: CreateRefundInput) {
    const { payment } = await this.payment(caller, intentId, paymentId);
    const destination = checkDestination(input.destination_address ?? payment.payer_address, { payable: this.deps.payContracts ?? false, memo: input.destination_memo !== undefined });
    checkMemo(input.destination_memo);
    const refund = await this.deps.sql.transaction(async () => {
      // re-read inside the transaction: two requests can never both pass the checks
      const fresh = (await this.deps.payments.findById(paymentId))!;
      // a throw below (e.g. a refund in progress) rolls the give-up back with everything else
      const intent = await this.leaveRouting(await this.deps.machine.load(intentId), fresh, input.reason);
      const plan = await this.plan(caller, intent, fresh, input.reason);
      return this.record(intent, fresh, plan, input, destination);
    });
    this.deps.nudge();
    return presentRefund(refund);
  }

  /**
   * A ROUTING intent's applied money belongs to its conversion. While it may be spending the funds
   * (PENDING/RUNNING) nothing of it is refunded; once it stalled (FAILED/PAUSED), a give-up reason
   * ends it for good and fails the intent, so the whole payment goes back in the SOURCE asset
   * (the conversion never happened) and the usual FAILED → REFUND_PENDING → REFUNDED path follows.
   */
  private async leaveRouting(intent: FundingIntentRecord, payment: PaymentRecord, reason: string): Promise<FundingIntentRecord> {
    if (intent.status !== 'ROUTING' || payment.status !== 'CONFIRMED') return intent;
    const status = await this.deps.conversions.status(intent.id);
    if (status === 'PENDING' || status === 'RUNNING') {
      throw new ApiError('CONFLICT', 'the conversion of this payment is in progress; refund it once the route execution has FAILED or PAUSED');
    }
    if ((status !== 'FAILED' && status !== 'PAUSED') || !GIVE_UP_REASONS.includes(reason)) return intent;
    await this.deps.conversions.abandon(intent.id);
    return this.deps.machine.transition(intent.id, 'FAILED', `route execution ${status}; given up to refund payment ${payment.id}`);
  }

  /** DESIGN §4, in order: in progress 409; from the deposit account; MANUAL from the balance; 422 when all returned. */
  private async plan(caller: Caller, intent: FundingIntentRecord, payment: PaymentRecord, reason: string): Promise<Plan> {
    const refunds = await this.deps.repo.byPayment(payment.id);
    if (inProgress(refunds)) throw new ApiError('CONFLICT', 'a refund of this payment is in progress; wait for it to complete or fail');
    const refundable = refundableAmount(intent, payment, refunds, await this.deps.routeRemainder(intent, payment));
    if (refundable > 0n) return { source: 'DEPOSIT', amount: refundable };
    const settled = settledRemaining(intent, payment, refunds);
    if (settled > 0n) {
      if (reason !== 'MANUAL') throw new ApiError('CONFLICT', 'this payment was settled to the application; only a MANUAL refund (from the ledger balance) can return it');
      const available = (await this.deps.ledger.balances(caller.applicationId, caller.environment)).get(intent.destination_asset) ?? 0n;
      if (available < settled) throw new ApiError('CONFLICT', `the ${intent.destination_asset} ledger balance (${fromStroops(available)}) is short of ${fromStroops(settled)}`);
      return { source: 'BALANCE', amount: settled };
    }
    if (refunds.some((r) => r.status === 'COMPLETED')) throw new ApiError('INVALID_AMOUNT', 'this payment was already refunded in full', { status: 422 });
    if (payment.status === 'FAILED') throw new ApiError('INVALID_AMOUNT', 'this payment failed verification: none of it arrived, so nothing is refundable');
    if (payment.status === 'DETECTED') throw new ApiError('CONFLICT', 'this payment is still being verified (DETECTED); refund it once it is CONFIRMED');
    if (intent.status === 'ROUTING') throw new ApiError('CONFLICT', 'this payment is being converted; once its route execution FAILED or PAUSED, refund it with reason SETTLEMENT_FAILED or MANUAL');
    throw new ApiError('CONFLICT', `nothing of this ${payment.status} payment is refundable while the intent is ${intent.status}`);
  }

  private async record(intent: FundingIntentRecord, payment: PaymentRecord, plan: Plan, input: CreateRefundInput, destination: string): Promise<RefundRecord> {
    const now = isoNow();
    const refund: RefundRecord = {
      id: newId('refund'), funding_intent_id: intent.id, payment_id: payment.id, application_id: intent.application_id, environment: intent.environment,
      asset_code: payment.asset_code, stellar_asset: payment.stellar_asset, amount: plan.amount, source: plan.source, destination_network: 'stellar',
      destination_address: destination, memo_type: input.destination_memo?.type ?? null, memo_value: input.destination_memo?.value ?? null,
      reason: input.reason, status: 'PENDING', envelope_xdr: null, transaction_hash: null, failure_code: null, failure_message: null,
      attempts: 0, next_attempt_at: now, created_at: now, completed_at: null, updated_at: now,
    };
    await this.deps.repo.insert(refund);
    await this.deps.events.refund('refund.created', refund);
    if (plan.source === 'BALANCE') {
      await postJournal(this.deps.ledger, {
        applicationId: intent.application_id, environment: intent.environment, type: 'REFUND', asset: intent.destination_asset, amount: plan.amount,
        credit: 'REFUND_CLEARING', debit: 'APPLICATION_BALANCE', fundingIntentId: intent.id, refundId: refund.id, description: `MANUAL refund ${refund.id}`,
      });
    }
    await this.followIntent(intent, payment, refund);
    return refund;
  }

  /**
   * REFUND_PENDING only when the intent's WHOLE received value is being returned (DESIGN §4); a
   * PARTIALLY_FUNDED intent then can no longer be paid. Refunding one of several underpayments
   * leaves the intent open, without that payment: it no longer counts toward the requirement.
   */
  private async followIntent(intent: FundingIntentRecord, payment: PaymentRecord, refund: RefundRecord): Promise<void> {
    if (intent.status !== 'FAILED' && intent.status !== 'EXPIRED' && intent.status !== 'PARTIALLY_FUNDED') return;
    const refunds = await this.deps.repo.byIntent(intent.id);
    if (coversIntent(intent, await this.deps.payments.byIntent(intent.id), refunds, (r) => r.status !== 'FAILED')) {
      // an accepted quote's conversion waits for the rest of the money, which will never come:
      // it has not started (only a confirmed intent converts), so it ends here with the intent
      if (intent.status === 'PARTIALLY_FUNDED' && await this.deps.conversions.status(intent.id) === 'PENDING') await this.deps.conversions.abandon(intent.id, 'an underpayment the payer gave up');
      await this.deps.machine.transition(intent.id, 'REFUND_PENDING', `refund ${refund.id} returns everything received`);
    } else if (intent.status === 'PARTIALLY_FUNDED' && payment.applied_amount > 0n) {
      await this.unapplyRefunded(intent, payment, refund);
    }
  }

  /** The refunded underpayment leaves received_amount; the history records why the intent's total fell. */
  private async unapplyRefunded(intent: FundingIntentRecord, payment: PaymentRecord, refund: RefundRecord): Promise<void> {
    const at = isoNow();
    await this.deps.payments.unapply(payment.id, at);
    await this.deps.intents.addReceived(intent.id, -payment.amount, at);
    await this.deps.machine.transition(intent.id, 'PARTIALLY_FUNDED', `payment ${payment.id} refunded (${refund.id}); it no longer counts toward the requirement`);
  }

  async get(caller: Caller, id: string) {
    const refund = await this.deps.repo.findById(id);
    if (!refund || refund.application_id !== caller.applicationId) throw notFound('refund');
    await this.deps.fundingIntents.load(caller, refund.funding_intent_id);
    return presentRefund(refund);
  }

  async list(caller: Caller, filters: RefundFilters, page: PageRequest) {
    return toList(await this.deps.repo.list(caller.applicationId, caller.environment, filters, page), page, presentRefund);
  }

  async listForPayment(caller: Caller, intentId: string, paymentId: string, page: PageRequest) {
    await this.payment(caller, intentId, paymentId);
    return this.list(caller, { paymentId }, page);
  }
}
