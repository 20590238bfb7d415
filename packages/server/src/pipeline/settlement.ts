/**
 * PAYMENT_CONFIRMED → SETTLING → SETTLED → CREDITED. The settlement pays the destination from
 * the deposit account with a real transaction (PENDING → SUBMITTED → CONFIRMED/FAILED), is
 * reconciled against the ledger credit by re-reading the transfer, and credits the application
 * exactly once (UNIQUE credit per intent).
 */
import { Operation } from '@stellar/stellar-sdk';
import { newId } from '../lib/ids.js';
import { fromStroops } from '../lib/money.js';
import { isoNow } from '../lib/time.js';
import type { FundingIntentRecord } from '../records/funding-intents.js';
import type { LedgerRepo } from '../records/ledger.js';
import type { PaymentsRepo } from '../records/payments.js';
import type { SettlementRecord, SettlementsRepo } from '../records/settlements.js';
import { parseAssetKey, sameAsset, toSdkAsset, type AssetRef, type StellarNetwork } from '../stellar/index.js';
import type { DepositKeys } from './deposit-keys.js';
import type { EventWriter } from './events.js';
import type { PipelineIntentsRepo } from './intents-repo.js';
import { postJournal } from './ledger-journal.js';
import { protocolSettlementId, SANDBOX_REGISTRY_CONTRACT } from './protocol.js';
import type { StateMachine } from './state-machine.js';
import type { TreasurySigner, TxOutcome } from './tx.js';
import { verifyTransfer } from './verify.js';
import type { Sql } from '../db/sql.js';

/**
 * The hook for route executions (quotes and conversion are a later issue): an intent whose route
 * is STELLAR_PATH_PAYMENT passes through ROUTING; its settlement is recorded as `path_payment`.
 * The conversion itself arrives already done (the payer's path payment credits what was received).
 */
export type RouteOf = (intent: FundingIntentRecord) => 'DIRECT_STELLAR' | 'STELLAR_PATH_PAYMENT';

export interface SettlementDeps {
  sql: Sql;
  network: StellarNetwork;
  networkName: string;
  payments: PaymentsRepo;
  settlements: SettlementsRepo;
  ledger: LedgerRepo;
  intents: PipelineIntentsRepo;
  machine: StateMachine;
  events: EventWriter;
  signer: TreasurySigner;
  depositKeys: DepositKeys;
  /** sandbox: make sure the destination exists and trusts the asset (the sandbox has no outside world) */
  prepareDestination?: (address: string, stellarAsset: string) => Promise<void>;
  routeOf?: RouteOf;
}

export class Settler {
  constructor(private readonly deps: SettlementDeps) {}

  /**
   * Opens the settlement of a confirmed intent (one per intent), moves the intent to SETTLING and
   * the settlement on to SUBMITTED (payout.initiated), in one transaction; `run` then builds and
   * sends its transfer. (A SUBMITTED settlement without an envelope is built afresh by its next
   * run, so nothing needs a PENDING step between the two.) One transaction, not two: on
   * PostgreSQL writer transactions queue on the writer lock, and a burst paid in one ledger should
   * be opened within the next.
   */
  async open(intent: FundingIntentRecord): Promise<SettlementRecord> {
    return this.deps.sql.transaction(async () => {
      const opened = await this.insertOpen(intent);
      return (await this.submitted(opened))!;
    });
  }

  private async insertOpen(intent: FundingIntentRecord): Promise<SettlementRecord> {
    const payment = (await this.deps.payments.byIntent(intent.id)).filter((p) => p.status === 'CONFIRMED').at(-1);
    if (!payment) throw new Error(`confirmed intent ${intent.id} has no confirmed payment`);
    const now = isoNow();
    const id = newId('settlement');
    const converted = this.deps.routeOf?.(intent) === 'STELLAR_PATH_PAYMENT';
    // a route execution moved it to ROUTING already when it converted the funds
    if (converted && intent.status === 'PAYMENT_CONFIRMED') await this.deps.machine.transition(intent.id, 'ROUTING', 'converting by path payment');
    const settlement: SettlementRecord = {
      id, funding_intent_id: intent.id, application_id: intent.application_id, environment: intent.environment, payment_id: payment.id,
      stellar_network: this.deps.networkName, route: converted ? 'path_payment' : 'direct', source_asset: intent.requirement_asset, source_amount: intent.requirement_amount,
      destination_asset: intent.destination_asset, destination_address: intent.destination_address, destination_amount: intent.requirement_amount,
      transaction_hash: payment.transaction_hash, envelope_xdr: null, transfer_transaction_hash: null,
      protocol_settlement_id: protocolSettlementId(id), protocol_contract_id: SANDBOX_REGISTRY_CONTRACT,
      protocol_create_transaction_hash: payment.transaction_hash, protocol_confirm_transaction_hash: null,
      status: 'PENDING', reconciliation_status: 'UNRECONCILED', fail_on_submit: await this.deps.settlements.takeFailureFlag(intent.id) ? 1 : 0,
      failure_code: null, failure_message: null, attempts: 0, next_attempt_at: now, submitted_at: null, confirmed_at: null, created_at: now, updated_at: now,
    };
    await this.deps.settlements.insert(settlement);
    await this.deps.machine.transition(intent.id, 'SETTLING', `settlement ${id} opened`);
    return settlement;
  }

  async run(s: SettlementRecord): Promise<void> {
    if (s.status === 'PENDING' && !await this.markSubmitted(s)) return;
    const asset = parseAssetKey(stellarAssetOf(this.deps.network, s.destination_asset));
    await this.deps.prepareDestination?.(s.destination_address, stellarAssetOf(this.deps.network, s.destination_asset));
    const deposit = await this.deps.depositKeys.forIntent(s.funding_intent_id);
    // the fail_settlement helper: ask for more than the account holds, a real op_underfunded
    const amount = s.fail_on_submit ? await this.moreThanHeld(deposit.address, asset) : s.destination_amount;
    const out = await this.deps.signer.run(s.envelope_xdr, () => ({
      operations: [Operation.payment({ source: deposit.address, destination: s.destination_address, asset: toSdkAsset(asset), amount: fromStroops(amount) })],
      signers: [deposit.signer],
    }), (envelope) => this.deps.settlements.update(s.id, { envelope_xdr: envelope, updated_at: isoNow() }));
    if (out.successful) return this.confirmed(s, out);
    await this.failed(s, out);
  }

  private async moreThanHeld(address: string, asset: AssetRef): Promise<bigint> {
    const view = await this.deps.network.loadAccount(address);
    const held = view?.balances.find((b) => sameAsset(b.asset, asset))?.balance ?? 0n;
    return held + 10_000_000n;
  }

  /** False when the settlement had already left PENDING (another process got there first). */
  private async markSubmitted(s: SettlementRecord): Promise<boolean> {
    return this.deps.sql.transaction(async () => (await this.submitted(s)) !== null);
  }

  /** PENDING → SUBMITTED with its payout.initiated; the settlement as now stored, or null when it had left PENDING. */
  private async submitted(s: SettlementRecord): Promise<SettlementRecord | null> {
    const at = isoNow();
    if (!await this.deps.settlements.updateFrom(s.id, ['PENDING'], { status: 'SUBMITTED', submitted_at: at, updated_at: at })) return null;
    const submitted = (await this.deps.settlements.findById(s.id))!;
    await this.deps.events.payout('payout.initiated', submitted, await this.metadata(s));
    return submitted;
  }

  private async metadata(s: SettlementRecord): Promise<string> {
    return (await this.deps.machine.load(s.funding_intent_id)).metadata;
  }

  private async confirmed(s: SettlementRecord, out: TxOutcome): Promise<void> {
    const view = await this.deps.network.getTransaction(out.hash);
    const expected = { destination: s.destination_address, stellarAsset: stellarAssetOf(this.deps.network, s.destination_asset), amount: s.destination_amount };
    const verdict = verifyTransfer(view, expected, this.deps.network.passphrase);
    await this.deps.sql.transaction(async () => {
      const at = isoNow();
      // once: a process that took the pipeline over may have seen the same transaction
      if (!await this.deps.settlements.updateFrom(s.id, ['PENDING', 'SUBMITTED'], {
        status: 'CONFIRMED', transfer_transaction_hash: out.hash, protocol_confirm_transaction_hash: out.hash, confirmed_at: at, updated_at: at,
      })) return;
      const settled = (await this.deps.settlements.findById(s.id))!;
      await this.deps.events.payout('payout.completed', settled, await this.metadata(s));
      await this.deps.machine.transition(s.funding_intent_id, 'SETTLED', `settlement ${s.id} confirmed`);
      await this.credit(settled);
      // RECONCILED only when the transfer re-read from the ledger matches the credit just written
      const credit = await this.deps.ledger.creditFor(s.funding_intent_id);
      const matches = verdict.ok && credit?.amount === s.destination_amount;
      await this.deps.settlements.update(s.id, { reconciliation_status: matches ? 'RECONCILED' : 'MISMATCHED' });
      await this.deps.machine.transition(s.funding_intent_id, 'CREDITED', `ledger credited for settlement ${s.id}`);
    });
  }

  private async credit(s: SettlementRecord): Promise<void> {
    if (await this.deps.ledger.hasIntentCredit(s.funding_intent_id)) return;
    await postJournal(this.deps.ledger, {
      applicationId: s.application_id, environment: s.environment, type: 'INTENT_CREDIT', asset: s.destination_asset, amount: s.destination_amount,
      credit: 'APPLICATION_BALANCE', debit: 'SETTLEMENT_CLEARING', fundingIntentId: s.funding_intent_id, settlementId: s.id,
      description: `funding intent ${s.funding_intent_id} settled`,
    });
  }

  private async failed(s: SettlementRecord, out: TxOutcome): Promise<void> {
    await this.deps.sql.transaction(async () => {
      const at = isoNow();
      const code = out.code?.split(': ').at(-1) ?? 'SETTLEMENT_FAILED';
      if (!await this.deps.settlements.updateFrom(s.id, ['PENDING', 'SUBMITTED'], {
        status: 'FAILED', transfer_transaction_hash: out.applied ? out.hash : null, failure_code: code,
        failure_message: `the settlement transfer failed (${out.code ?? 'rejected'}); the received funds are refundable (SETTLEMENT_FAILED)`, updated_at: at,
      })) return;
      await this.deps.events.payout('payout.failed', (await this.deps.settlements.findById(s.id))!, await this.metadata(s));
      await this.deps.machine.transition(s.funding_intent_id, 'FAILED', `settlement ${s.id} failed: ${code}`);
    });
  }

  async retryLater(s: SettlementRecord, at: string): Promise<void> {
    await this.deps.settlements.update(s.id, { attempts: s.attempts + 1, next_attempt_at: at });
  }
}

/** "USDC" → "USDC:G…" / "native", as the network knows it. */
export function stellarAssetOf(network: StellarNetwork, code: string): string {
  const asset = network.assets[code as 'USDC' | 'EURC' | 'XLM'];
  return asset.issuer === null ? 'native' : `${asset.code}:${asset.issuer}`;
}
