/**
 * ACTIVE → RETIRED: once an intent is final, its watch window (7 days after expiry by default)
 * has passed and nothing in its deposit account is owed to anyone, the account removes its
 * (empty) trustlines and merges back into the treasury, which gets its sponsored reserves back.
 * An intent that ended unpaid (EXPIRED or CANCELLED having received nothing) gives its account back
 * at once: sign-ups that open intents and never pay must not keep the treasury's XLM locked for a
 * week. A payment sent after the merge fails on the payer's side (the account no longer exists),
 * so nothing is lost; one that landed before it is found on chain below and waits to be recorded.
 */
import { Operation } from '@stellar/stellar-sdk';
import { prepared, sqlOf, type Sql } from '../db/sql.js';
import { isoNow } from '../lib/time.js';
import type { PaymentsRepo } from '../records/payments.js';
import type { RefundsRepo } from '../records/refunds.js';
import type { SettlementsRepo } from '../records/settlements.js';
import { toSdkAsset, type StellarNetwork } from '../stellar/index.js';
import type { DepositKeys } from './deposit-keys.js';
import { inProgress, refundableAmount } from './refundable.js';
import type { StateMachine } from './state-machine.js';
import type { TreasurySigner } from './tx.js';

export interface RetireDeps {
  sql: Sql;
  network: StellarNetwork;
  payments: PaymentsRepo;
  refunds: RefundsRepo;
  settlements: SettlementsRepo;
  machine: StateMachine;
  signer: TreasurySigner;
  depositKeys: DepositKeys;
  watchWindowMs: number;
}

const FINAL = ['CREDITED', 'REFUNDED', 'CANCELLED', 'EXPIRED', 'FAILED'];

/** Final and received nothing: no payment to watch for. */
const ENDED_UNPAID = ['EXPIRED', 'CANCELLED'];

const TO_RETIRE = prepared<{ id: string }, { cutoff: string }>((k, p) => k.selectFrom('funding_intents as fi')
  .innerJoin('deposit_accounts as da', 'da.id', 'fi.deposit_account_id').innerJoin('deposit_watch as w', 'w.address', 'da.address')
  .select('fi.id').where('da.status', '=', 'ACTIVE').where('fi.status', 'in', FINAL)
  .where((eb) => eb.or([
    eb.and([eb('fi.expires_at', '<=', p('cutoff')), eb('fi.updated_at', '<=', p('cutoff'))]),
    eb.and([eb('fi.status', 'in', ENDED_UNPAID), eb('fi.received_amount', '=', 0n)]),
  ]))
  .orderBy('fi.updated_at').limit(50));

const MARK_RETIRED = prepared<never, { id: string; at: string }>((k, p) =>
  k.updateTable('deposit_accounts').set({ status: 'RETIRED', retired_at: p('at') }).where('id', '=', p('id')));

export class DepositRetirer {
  /** accounts checked and found still owing something: looked at again later, not in a busy loop */
  private readonly later = new Map<string, number>();
  private readonly sql: Sql;

  constructor(private readonly deps: RetireDeps) {
    this.sql = sqlOf(deps.sql);
  }

  /** Final intents with an ACTIVE deposit account whose watch window is over. */
  async claim(): Promise<string | undefined> {
    const cutoff = isoNow(Date.now() - this.deps.watchWindowMs);
    const rows = await this.sql.column(TO_RETIRE, { cutoff });
    return rows.find((id) => (this.later.get(id) ?? 0) <= Date.now());
  }

  /** Nothing refundable, nothing in flight. */
  private async settledUp(intentId: string): Promise<boolean> {
    const intent = await this.deps.machine.load(intentId);
    const settlement = await this.deps.settlements.byIntent(intentId);
    if (settlement && (settlement.status === 'PENDING' || settlement.status === 'SUBMITTED')) return false;
    for (const p of await this.deps.payments.byIntent(intentId)) {
      const refunds = await this.deps.refunds.byPayment(p.id);
      if (p.status === 'DETECTED' || inProgress(refunds) || refundableAmount(intent, p, refunds) !== 0n) return false;
    }
    return true;
  }

  /**
   * A deposit account starts with 0 XLM (its reserves are sponsored): lumens in the account of an
   * intent that has received nothing are a payment the follower has not recorded yet, not
   * something to merge into the treasury.
   */
  private async unrecordedLumens(intentId: string, balances: Array<{ asset: { issuer: string | null }; balance: bigint }>): Promise<boolean> {
    const lumens = balances.find((b) => b.asset.issuer === null)?.balance ?? 0n;
    return lumens > 0n && (await this.deps.machine.load(intentId)).received_amount === 0n;
  }

  async retire(intentId: string): Promise<void> {
    const deposit = await this.deps.depositKeys.forIntent(intentId);
    // a muxed address has no account of its own: the collection account it names is never merged
    if (deposit.type === 'muxed') return this.markRetired(deposit.accountId);
    const view = await this.deps.network.loadAccount(deposit.address);
    // gone on chain: merged by an earlier run that crashed before recording it
    if (!view) return this.markRetired(deposit.accountId);
    const lines = view.balances.filter((b) => b.asset.issuer !== null);
    if (!await this.settledUp(intentId) || lines.some((b) => b.balance > 0n) || await this.unrecordedLumens(intentId, view.balances)) {
      this.later.set(intentId, Date.now() + Math.min(Math.max(this.deps.watchWindowMs, 1000), 3_600_000));
      return;
    }
    const out = await this.deps.signer.run(null, () => ({
      operations: [
        ...lines.map((b) => Operation.changeTrust({ source: deposit.address, asset: toSdkAsset(b.asset), limit: '0' })),
        Operation.accountMerge({ source: deposit.address, destination: this.deps.signer.treasury.publicKey() }),
      ],
      signers: [deposit.signer],
    }), () => undefined);
    if (!out.successful) throw new Error(`could not merge ${deposit.address}: ${out.code}`);
    await this.markRetired(deposit.accountId);
  }

  /** A retired account is no longer matched by the ledger follower (WatchRepo.watchedAmong). */
  private async markRetired(accountId: string): Promise<void> {
    await this.sql.run(MARK_RETIRED, { id: accountId, at: isoNow() });
  }

  retryLater(intentId: string, at: string): void {
    this.later.set(intentId, Date.parse(at));
  }
}
