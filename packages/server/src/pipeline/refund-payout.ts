/**
 * Refund payouts: PENDING → PROCESSING → COMPLETED (a real payment from the deposit account, or
 * from the treasury for MANUAL refunds of settled money) or FAILED. The intent follows only when
 * its whole received value is being returned (REFUND_PENDING → REFUNDED).
 */
import { Address, Memo, nativeToScVal, Operation, StrKey, type Asset, type xdr } from '@stellar/stellar-sdk';
import { fromStroops } from '../lib/money.js';
import { isoNow } from '../lib/time.js';
import type { LedgerRepo } from '../records/ledger.js';
import type { PaymentsRepo } from '../records/payments.js';
import type { RefundRecord, RefundsRepo } from '../records/refunds.js';
import { parseAssetKey, toSdkAsset } from '../stellar/index.js';
import type { DepositKeys } from './deposit-keys.js';
import type { EventWriter } from './events.js';
import { postJournal } from './ledger-journal.js';
import { coversIntent } from './refundable.js';
import type { StateMachine } from './state-machine.js';
import type { BuildSpec, TreasurySigner, TxOutcome } from './tx.js';
import type { Sql } from '../db/sql.js';

export interface RefundPayoutDeps {
  sql: Sql;
  refunds: RefundsRepo;
  payments: PaymentsRepo;
  ledger: LedgerRepo;
  machine: StateMachine;
  events: EventWriter;
  signer: TreasurySigner;
  depositKeys: DepositKeys;
}

export function refundMemo(type: string | null, value: string | null): Memo | undefined {
  if (!type || value === null) return undefined;
  if (type === 'text') return Memo.text(value);
  if (type === 'id') return Memo.id(value);
  if (type === 'hash') return Memo.hash(value.toLowerCase());
  return undefined;
}

export class RefundPayer {
  constructor(private readonly deps: RefundPayoutDeps) {}

  async claim(busy: ReadonlySet<string> = new Set()): Promise<RefundRecord | undefined> {
    return this.deps.refunds.nextToRun(isoNow(), busy);
  }

  private async spec(r: RefundRecord): Promise<BuildSpec> {
    const asset = toSdkAsset(parseAssetKey(r.stellar_asset));
    if (StrKey.isValidContract(r.destination_address)) return this.contractSpec(r, asset);
    const payment = { destination: r.destination_address, asset, amount: fromStroops(r.amount) };
    const memo = refundMemo(r.memo_type, r.memo_value);
    if (r.source === 'BALANCE') return { operations: [Operation.payment(payment)], ...(memo ? { memo } : {}) };
    const deposit = await this.deps.depositKeys.forIntent(r.funding_intent_id);
    return { operations: [Operation.payment({ ...payment, source: deposit.address })], signers: [deposit.signer], ...(memo ? { memo } : {}) };
  }

  /**
   * A contract (a C… payer: a smart wallet) holds no trustline and takes no payment operation:
   * it is paid by the asset's Stellar Asset Contract, `transfer(from, to, amount)`, invoked by
   * the paying account itself (source-account authorization), simulated before it is signed.
   */
  private async contractSpec(r: RefundRecord, asset: Asset): Promise<BuildSpec> {
    const transfer = (from: string, source?: string): xdr.Operation => Operation.invokeContractFunction({
      contract: asset.contractId(this.deps.signer.network.passphrase), function: 'transfer',
      args: [new Address(from).toScVal(), new Address(r.destination_address).toScVal(), nativeToScVal(r.amount, { type: 'i128' })],
      ...(source ? { source } : {}),
    });
    if (r.source === 'BALANCE') return { operations: [transfer(this.deps.signer.treasury.publicKey())], soroban: true };
    const deposit = await this.deps.depositKeys.forIntent(r.funding_intent_id);
    return { operations: [transfer(deposit.address, deposit.address)], signers: [deposit.signer], soroban: true };
  }

  async pay(r: RefundRecord): Promise<void> {
    if (r.status === 'PENDING' && !await this.deps.refunds.updateFrom(r.id, ['PENDING'], { status: 'PROCESSING', updated_at: isoNow() })) return;
    const out = await this.deps.signer.run(r.envelope_xdr, () => this.spec(r),
      (envelope) => this.deps.refunds.update(r.id, { envelope_xdr: envelope, updated_at: isoNow() }));
    await this.deps.sql.transaction(async () => (out.successful ? await this.completed(r, out) : await this.failed(r, out)));
  }

  private async completed(r: RefundRecord, out: TxOutcome): Promise<void> {
    const at = isoNow();
    // once: a process that took the pipeline over may have seen the same transaction
    if (!await this.deps.refunds.updateFrom(r.id, ['PENDING', 'PROCESSING'], { status: 'COMPLETED', transaction_hash: out.hash, completed_at: at, updated_at: at })) return;
    await this.deps.events.refund('refund.completed', (await this.deps.refunds.findById(r.id))!);
    const intent = await this.deps.machine.load(r.funding_intent_id);
    if (intent.status !== 'REFUND_PENDING') return;
    const refunds = await this.deps.refunds.byIntent(intent.id);
    if (coversIntent(intent, await this.deps.payments.byIntent(intent.id), refunds, (x) => x.status === 'COMPLETED')) {
      await this.deps.machine.transition(intent.id, 'REFUNDED', `refund ${r.id} completed`);
    }
  }

  private async failed(r: RefundRecord, out: TxOutcome): Promise<void> {
    const at = isoNow();
    const code = out.code?.split(': ').at(-1) ?? 'REFUND_FAILED';
    // once: a failed BALANCE refund gives its amount back, which must never happen twice
    if (!await this.deps.refunds.updateFrom(r.id, ['PENDING', 'PROCESSING'], { status: 'FAILED', failure_code: code, failure_message: `the refund payment failed (${out.code ?? 'rejected'}${out.detail ? `: ${out.detail}` : ''})`, updated_at: at })) return;
    await this.deps.events.refund('refund.failed', (await this.deps.refunds.findById(r.id))!);
    // a MANUAL refund debited the balance when it was recorded; give it back
    if (r.source === 'BALANCE') {
      await postJournal(this.deps.ledger, {
        applicationId: r.application_id, environment: r.environment, type: 'ADJUSTMENT', asset: r.asset_code, amount: r.amount,
        credit: 'APPLICATION_BALANCE', debit: 'REFUND_CLEARING', fundingIntentId: r.funding_intent_id, refundId: r.id, description: `refund ${r.id} failed; balance restored`,
      });
    }
    const intent = await this.deps.machine.load(r.funding_intent_id);
    if (intent.status === 'REFUND_PENDING') await this.deps.machine.transition(intent.id, 'FAILED', `refund ${r.id} failed: ${code}`);
  }

  async retryLater(r: RefundRecord, at: string): Promise<void> {
    await this.deps.refunds.update(r.id, { attempts: r.attempts + 1, next_attempt_at: at });
  }
}
