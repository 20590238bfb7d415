/**
 * The deposit pool worker: keeps `size` accounts per asset active on chain for the environment the
 * network serves, and creates the PROVISIONING accounts of intents that found the pool empty
 * (those first). Accounts go many per transaction (MAX_ACCOUNTS_PER_TX). A batch's keys are stored
 * encrypted before anything is built, its envelope before it is submitted; after a crash the batch
 * is still PENDING and its stored envelope is looked up or resubmitted unchanged (TreasurySigner.run),
 * so no account is ever created on chain whose key is lost.
 */
import { decryptSecret } from '../lib/crypto.js';
import { newId } from '../lib/ids.js';
import { isoNow } from '../lib/time.js';
import { toSdkAsset, type StellarNetwork } from '../stellar/index.js';
import type { DepositBatch, DepositPoolRepo } from './deposit-pool-repo.js';
import { MAX_ACCOUNTS_PER_TX, sponsoredAccountOps } from './provision.js';
import type { StateMachine } from './state-machine.js';
import type { TreasurySigner, TxOutcome } from './tx.js';
import type { WatchRepo } from './watch-repo.js';
import { NativeKeypair } from '../stellar/keypair.js';
import { sealNewKey } from '../stellar/key-reserve.js';
import type { Sql } from '../db/sql.js';
import { assess, shortfallMessage } from '../treasury/assess.js';
import { inspectTreasury } from '../treasury/inspect.js';

export interface DepositPoolDeps {
  sql: Sql;
  network: StellarNetwork;
  networkName: string;
  /** the one environment this network serves (test: sandbox/testnet, live: pubnet) */
  environment: string;
  /** ready accounts kept per asset (FUNDKIT_DEPOSIT_POOL_SIZE); 0 = every create provisions its own */
  size: number;
  repo: DepositPoolRepo;
  watch: WatchRepo;
  machine: StateMachine;
  signer: TreasurySigner;
  secretsKey: Buffer;
  /** an intent's account is active: the observer follows it from now on */
  onActivated: (address: string) => void;
  /**
   * Before any account is submitted: the ledger follower has its cursor (a payment to an account
   * is then never in a ledger older than the cursor). Throws while the network cannot say its tip.
   */
  beforeSubmit?: () => Promise<void>;
  /** wakes the pool's worker (when demand has gathered long enough) */
  wake?: () => void;
  /** how long demand gathers before batches are planned (see plan); GATHER_MS by default */
  gatherMs?: number;
  /** requests keep the API's event loop saturated: new batches wait (see mayPlan) */
  saturated?: () => boolean;
}

/** How long demand gathers before batches are planned, on an instant ledger (see plan). */
export const GATHER_MS = 20;

/** While requests saturate the API, one new batch this often (see mayPlan). */
export const SATURATED_BATCH_MS = 1_000;

type Code = 'USDC' | 'EURC' | 'XLM';

/** A deposit batch failed because the treasury lacks XLM (or does not exist): the message says what to do. */
export class TreasuryShortError extends Error {
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'TreasuryShortError';
  }
}

export class DepositPool {
  /** batches being submitted by this process: never claimed twice */
  private readonly busy = new Set<string>();
  /** after a failed batch, no new one is planned before this time (the loop's backoff) */
  private pausedUntil = 0;
  private failures = 0;
  /** when planning first found demand since the last time none was left (see plan) */
  private gatheringSince: number | null = null;
  /** the last failure was the treasury's lack of funds: retried at least every ~30 s (attempts) until funded */
  private treasuryShort = false;
  /** when the last new batch was planned, and a wake-up already set for the next (see mayPlan) */
  private plannedAt = 0;
  private wakeSet = false;

  constructor(private readonly deps: DepositPoolDeps) {}

  /** A PENDING batch that is due (a restart, a network error), else a new one; undefined when nothing is missing. */
  async claim(partialNow = false): Promise<DepositBatch | undefined> {
    if (!this.mayPlan(partialNow)) return undefined;
    let pending = await this.deps.repo.nextPending(this.deps.networkName, isoNow(), [...this.busy]);
    // never built, so never submitted: safe to drop, and intents that started waiting since go first
    if (pending && !pending.envelope_xdr && (await this.deps.repo.waiting(this.deps.environment, 1)).length > 0) {
      await this.superseded(pending);
      pending = undefined;
    }
    const planned = pending ? undefined : Date.now() >= this.pausedUntil ? await this.plan(partialNow) : undefined;
    if (planned) this.plannedAt = Date.now();
    const batch = pending ?? planned;
    if (batch) this.busy.add(batch.id);
    return batch;
  }

  /**
   * Requests first: while they keep the API's event loop saturated, one new batch a
   * SATURATED_BATCH_MS at most, and the rest once the burst has passed. A batch costs the API more
   * than the creates it serves (a key loaded and a signature per account, the transaction built,
   * its confirmation and the ledger's records read), so at saturation on the instant sandbox,
   * batches made as fast as creates asked for them held creates to a quarter of their rate. On a
   * real network a burst outruns the ledgers' room anyway. Checked before any query: every create
   * that finds the pool empty nudges the worker.
   */
  private mayPlan(partialNow: boolean): boolean {
    if (partialNow || !this.deps.saturated?.()) return true;
    const due = this.plannedAt + SATURATED_BATCH_MS;
    if (Date.now() >= due) return true;
    if (!this.wakeSet) {
      this.wakeSet = true;
      setTimeout(() => {
        this.wakeSet = false;
        this.deps.wake?.();
      }, due - Date.now()).unref();
    }
    return false;
  }

  /** What is missing per asset, one asset after the other so none waits behind another's deficit. */
  private async topUps(slots: number): Promise<Code[]> {
    const codes = Object.keys(this.deps.network.assets) as Code[];
    const have = await this.deps.repo.unclaimed(this.deps.networkName, this.deps.environment, codes);
    const missing = codes.map((code) => ({ code, n: this.deps.size - (have.get(code) ?? 0) }));
    const out: Code[] = [];
    while (out.length < slots && missing.some((m) => m.n > 0)) {
      for (const m of missing) if (m.n > 0 && out.length < slots) (out.push(m.code), m.n--);
    }
    return out;
  }

  /**
   * Records a new batch with its keys (encrypted): waiting intents' accounts first, then the pool's.
   * New demand first gathers for `gatherMs`, then every batch it makes goes out, until none is
   * left. Every transaction costs three signatures, a ledger slot and (on the instant sandbox) a
   * close: without the wait each create that found the pool empty paid one alone (profiled on the
   * instant sandbox: 607 batches of one account for 608 creates, most of the server's CPU). On a
   * real ledger the wait (as long as the treasury's linger) is lost in the seconds until the close,
   * and a burst of creates is answered before its accounts' transactions are built and admitted.
   */
  private async plan(partialNow: boolean): Promise<DepositBatch | undefined> {
    return this.deps.sql.transaction(async () => {
      const { repo, networkName: network, environment } = this.deps;
      const waiting = await repo.waiting(environment, MAX_ACCOUNTS_PER_TX);
      const topUps = await this.topUps(MAX_ACCOUNTS_PER_TX - waiting.length);
      if (waiting.length + topUps.length === 0) {
        this.gatheringSince = null;
        return undefined;
      }
      if (!partialNow && !this.gathered()) return undefined;
      const at = isoNow();
      const batch: DepositBatch = {
        id: newId('deposit_batch'), network, environment, status: 'PENDING', envelope_xdr: null, transaction_hash: null, failure_code: null,
        attempts: 0, next_attempt_at: at, created_at: at, updated_at: at, cosigner: this.deps.signer.treasury.publicKey(),
      };
      await repo.insertBatch(batch);
      for (const account of waiting) await repo.assignToBatch(account.id, batch.id);
      for (const asset of topUps) {
        const key = sealNewKey(this.deps.secretsKey);
        await repo.insertPoolAccount({
          network, environment, asset, address: key.address, secret_encrypted: key.sealed,
          batch_id: batch.id, transaction_hash: null, created_at: at, activated_at: null, claimed_at: null,
        });
      }
      return batch;
    });
  }

  /** Whether demand has gathered long enough; starts gathering (and a wake-up at its end) if none is under way. */
  private gathered(): boolean {
    const now = Date.now();
    const window = this.deps.gatherMs ?? GATHER_MS;
    if (this.gatheringSince === null) {
      this.gatheringSince = now;
      setTimeout(() => this.deps.wake?.(), window).unref();
      return false;
    }
    return now - this.gatheringSince >= window;
  }

  /** The one place deposit accounts are submitted (the batched engine replaces TreasurySigner.run here). */
  async run(claimed: DepositBatch): Promise<void> {
    try {
      await this.deps.beforeSubmit?.();
      const batch = (await this.deps.repo.findBatch(claimed.id))!;
      const members = await this.deps.repo.members(batch.id);
      const out = await this.deps.signer.run(batch.envelope_xdr, () => ({
        operations: members.flatMap((m) => sponsoredAccountOps(this.deps.signer.treasury.publicKey(), m.address, toSdkAsset(this.deps.network.assets[m.asset as Code]))),
        signers: members.map((m) => NativeKeypair.fromSecret(decryptSecret(this.deps.secretsKey, m.secret_encrypted))),
      }), (envelope) => this.deps.repo.updateBatch(batch.id, { envelope_xdr: envelope }, isoNow()));
      if (!out.successful) {
        await this.failed(batch, out);
        throw new Error(`deposit batch ${batch.id} failed: ${out.code ?? 'rejected'}`);
      }
      await this.applied(batch, out.hash);
    } catch (error) {
      throw await this.explained(error);
    } finally {
      this.busy.delete(claimed.id);
    }
  }

  /** Pool rows become claimable; intents' accounts become ACTIVE and their intents AWAITING_PAYMENT (event with it). */
  private async applied(batch: DepositBatch, hash: string): Promise<void> {
    const { repo, watch, machine } = this.deps;
    const activated = await this.deps.sql.transaction(async () => {
      const at = isoNow();
      await repo.updateBatch(batch.id, { status: 'APPLIED', transaction_hash: hash }, at);
      await repo.activatePool(batch.id, hash, at);
      const accounts = await repo.activateAccounts(batch.id, at);
      for (const account of accounts) {
        await watch.add(account.address, this.deps.networkName, hash);
        const intent = await repo.intentOf(account.id);
        // a CREATED intent cancelled meanwhile keeps its status; its account simply exists
        if (intent?.status === 'CREATED') await machine.transition(intent.id, 'AWAITING_PAYMENT', `deposit account active (batch ${batch.id})`);
      }
      return accounts;
    });
    this.failures = 0;
    this.treasuryShort = false;
    for (const account of activated) this.deps.onActivated(account.address);
  }

  /** The transaction failed as a whole, so no account exists: pool keys dropped, waiting intents re-planned. */
  private async failed(batch: DepositBatch, out: TxOutcome): Promise<void> {
    await this.deps.sql.transaction(async () => {
      await this.deps.repo.updateBatch(batch.id, { status: 'FAILED', failure_code: out.code ?? 'rejected', transaction_hash: out.applied ? out.hash : null }, isoNow());
      await this.deps.repo.release(batch.id);
    });
  }

  private async superseded(batch: DepositBatch): Promise<void> {
    await this.deps.sql.transaction(async () => {
      // guarded: a process that took the pipeline over may be submitting it by now
      if (await this.deps.repo.supersede(batch.id, isoNow())) await this.deps.repo.release(batch.id);
    });
  }

  /** The loop's backoff: a batch still PENDING (network error) waits, and no new batch is planned meanwhile. */
  async retryLater(batch: DepositBatch, retryAt: string): Promise<void> {
    this.failures++;
    this.pausedUntil = Date.parse(retryAt);
    const current = await this.deps.repo.findBatch(batch.id);
    if (current?.status === 'PENDING') await this.deps.repo.updateBatch(batch.id, { attempts: current.attempts + 1, next_attempt_at: retryAt }, isoNow());
  }

  attempts(batch: DepositBatch): number {
    const n = Math.max(batch.attempts, this.failures);
    // an operator funding the treasury should not wait out a 5-minute backoff (at most 2^5 base delays)
    return this.treasuryShort ? Math.min(n, 5) : n;
  }

  /**
   * A failed batch whose cause is the treasury (no account, too little XLM for the reserves, its
   * channels not creatable) becomes an error saying what is missing and how to fund it: the
   * worker logs it at warn, and so does a start whose pool could not fill.
   */
  private async explained(error: unknown): Promise<unknown> {
    const { network, signer } = this.deps;
    try {
      const report = assess(await inspectTreasury({
        network, treasury: signer.treasury.publicKey(), channels: signer.channels.channels.map((c) => c.keypair.publicKey()),
        poolSize: this.deps.size, ready: (asset) => this.ready(asset),
      }));
      this.treasuryShort = !report.ok && (report.state.account === null || report.shortfall > 0n);
      if (this.treasuryShort) return new TreasuryShortError(shortfallMessage(report), error);
    } catch {
      // the network cannot be read: the batch's own error says so
    }
    return error;
  }

  /** Runs batches until nothing is missing (a server's start in the instant sandbox), within `timeoutMs`. */
  async fill(timeoutMs: number): Promise<void> {
    const until = Date.now() + timeoutMs;
    for (let batch = await this.claim(true); batch; batch = Date.now() < until ? await this.claim(true) : undefined) await this.run(batch);
  }

  /** Ready (claimable) accounts of an asset now (tests, diagnostics). */
  async ready(asset: string): Promise<number> {
    return this.deps.repo.ready(this.deps.networkName, this.deps.environment, asset);
  }
}
