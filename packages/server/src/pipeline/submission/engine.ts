/**
 * The treasury's one submission engine. Work from many intents (settlements, refund payouts,
 * trustlines, retirements, deposit accounts) waits in a queue; whenever a channel account is
 * free, as much of the queue as fits one transaction (100 operations, 20 signatures) goes out
 * over it — async submission, then confirmation by looking the hash up — so several
 * transactions of many operations each land in one ledger.
 *
 * Crash safety is as before: every item's envelope is stored (all items of a batch in one
 * database transaction) BEFORE the batch is submitted; after a crash a stored envelope is looked
 * up and, if it never applied, resubmitted unchanged on its own channel. A batch that failed in
 * a ledger because of one operation is split: that item fails, the others go again.
 */
import { FeeBumpTransaction, TransactionBuilder, type Keypair, type Transaction } from '@stellar/stellar-sdk';
import { SimulationFailedError, type StellarNetwork, type TransactionView } from '../../stellar/index.js';
import type { BuildSpec, TxOutcome } from './types.js';
import { buildBatch, buildPrepared, fitCount, withSources, type Built } from './batch.js';
import { ChannelPool, type Channel } from './channels.js';
import { itemVerdict } from './outcome.js';

export interface EngineOptions {
  /** Channel accounts (FUNDKIT_TREASURY_CHANNELS); each carries one transaction per ledger. */
  channels?: number;
  /** How often a submitted transaction is looked up until it is in a ledger. */
  pollMs?: number;
  /** After this long unseen, the same envelope is submitted again (it may have been dropped). */
  resubmitMs?: number;
  /**
   * After this long unseen, the wait ends with an error: the caller's worker retries later with
   * the stored envelope (looked up, or resubmitted unchanged), so a job never waits forever.
   */
  giveUpMs?: number;
  /** Runs the stores of one batch atomically (the database's transaction). */
  atomically?: <T>(fn: () => Promise<T>) => Promise<T>;
  /** Items one transaction carries at most (FUNDKIT_TREASURY_BATCH_ITEMS); 1 submits one at a time. */
  maxBatchItems?: number;
  /**
   * How long a free channel waits for more work when less than a full transaction is queued
   * (default 0). A transaction lands at the next ledger close whenever it is sent within the
   * ledger, so on a real network a short wait fills transactions instead of spreading a burst
   * over every channel in small ones, each channel then busy until the close.
   */
  lingerMs?: number;
}

interface Item {
  spec: BuildSpec;
  save: (envelopeXdr: string) => Promise<void>;
  resolve: (outcome: TxOutcome) => void;
  reject: (error: unknown) => void;
  /** when it was queued (ms): the age of the oldest waiting item is a metric */
  queuedAt: number;
}

/** The operations of an item, built when needed (they may read the database). */
type SpecSource = () => BuildSpec | Promise<BuildSpec>;

type Sent = { confirmed: TransactionView } | { refused: string };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class SubmissionEngine {
  readonly channels: ChannelPool;
  private readonly queue: Item[] = [];
  private pumping = false;
  private readonly pollMs: number;
  private readonly resubmitMs: number;
  private readonly giveUpMs: number;
  private readonly atomically: <T>(fn: () => Promise<T>) => Promise<T>;
  private readonly maxBatchItems: number;
  private readonly lingerMs: number;

  constructor(readonly network: StellarNetwork, readonly treasury: Keypair, options: EngineOptions = {}) {
    this.channels = new ChannelPool(network, treasury, options.channels ?? 8);
    this.pollMs = options.pollMs ?? 250;
    this.resubmitMs = options.resubmitMs ?? 30_000;
    this.giveUpMs = options.giveUpMs ?? 180_000;
    this.atomically = options.atomically ?? ((fn) => fn());
    this.maxBatchItems = options.maxBatchItems ?? Infinity;
    this.lingerMs = options.lingerMs ?? 0;
  }

  /**
   * Submits `stored` (looked up first, resubmitted unchanged if it never applied) or queues a
   * fresh item, whose envelope is handed to `save` before submission. Resolves with this
   * item's outcome; network errors reject (the caller's worker retries with backoff).
   */
  async run(stored: string | null, spec: SpecSource, save: (envelopeXdr: string) => Promise<void> | void): Promise<TxOutcome> {
    const saveAsync = async (envelopeXdr: string) => { await save(envelopeXdr); };
    return stored ? this.resume(stored, spec, saveAsync) : this.enqueue(await spec(), saveAsync);
  }

  /** Items waiting for a channel (for tests and metrics). */
  get queued(): number {
    return this.queue.length;
  }

  /** Since when the oldest item waits (ms), or null when none does (metrics). */
  get oldestQueuedAt(): number | null {
    return this.queue[0]?.queuedAt ?? null;
  }

  private enqueue(spec: BuildSpec, save: Item['save']): Promise<TxOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ spec, save, resolve, reject, queuedAt: Date.now() });
      void this.pump();
    });
  }

  /** Starts a batch on every free channel while work is queued. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      await this.channels.ensure();
      while (this.queue.length > 0) {
        const channel = await this.channels.lease();
        if (this.lingerMs > 0 && this.fits() === this.queue.length) await sleep(this.lingerMs);
        const items = this.queue.splice(0, this.fits());
        void this.dispatch(channel, items).finally(() => this.channels.release(channel));
      }
    } catch (error) {
      for (const item of this.queue.splice(0)) item.reject(error);
    } finally {
      this.pumping = false;
    }
  }

  /** How many queued items the next transaction takes. */
  private fits(): number {
    return fitCount(this.queue.map((i) => i.spec), this.treasury, this.maxBatchItems);
  }

  private async dispatch(channel: Channel, items: Item[]): Promise<void> {
    try {
      const sequence = await this.channels.nextSequence(channel);
      const built = await this.build(items, channel, sequence).catch((error: unknown) => {
        if (!(error instanceof SimulationFailedError)) throw error;
        // the network says the invocation would fail: the item fails, nothing was sent
        for (const item of items) item.resolve({ hash: '', applied: false, successful: false, ledger: null, code: 'simulation_failed', detail: error.reason });
        return null;
      });
      if (!built) return;
      await this.atomically(async () => { for (const item of items) await item.save(built.envelope); });
      const sent = await this.send(channel, built.envelope, built.hash);
      this.settle(items, built, sent);
    } catch (error) {
      channel.sequence = null;
      for (const item of items) item.reject(error);
    }
  }

  private async build(items: Item[], channel: Channel, sequence: bigint): Promise<Built> {
    const specs = items.map((i) => i.spec);
    if (!specs[0]!.soroban) return buildBatch(specs, channel.keypair, sequence, this.treasury, this.network.passphrase);
    const prepare = this.network.prepareTransaction?.bind(this.network);
    if (!prepare) throw new Error('paying a contract needs Stellar RPC (simulateTransaction): this network has none');
    return buildPrepared(specs[0]!, channel.keypair, sequence, this.treasury, this.network.passphrase, prepare);
  }

  private settle(items: Item[], built: Built, sent: Sent): void {
    if ('refused' in sent) return this.refused(items, sent.refused);
    items.forEach((item, i) => {
      const verdict = itemVerdict(sent.confirmed, built.offsets[i]!, item.spec.operations.length);
      if ('done' in verdict) item.resolve(verdict.done);
      else this.requeue(item);
    });
  }

  /**
   * Refused before any ledger: a consumed sequence number means the envelope can never apply,
   * so its items go again; any other refusal of a batch is split until it names one item.
   */
  private refused(items: Item[], code: string): void {
    if (code === 'tx_bad_seq' || code === 'try_again_later') return items.forEach((i) => this.requeue(i));
    if (items.length > 1) {
      const half = Math.ceil(items.length / 2);
      for (const part of [items.slice(0, half), items.slice(half)]) void this.isolate(part);
      return;
    }
    items[0]!.resolve({ hash: '', applied: false, successful: false, ledger: null, code });
  }

  /** Sends items as a batch of their own (a split), on the next free channel. */
  private async isolate(items: Item[]): Promise<void> {
    const channel = await this.channels.lease();
    await this.dispatch(channel, items).finally(() => this.channels.release(channel));
  }

  private requeue(item: Item): void {
    this.queue.unshift(item);
    void this.pump();
  }

  /** Async submission, then lookups until the transaction is in a ledger (or refused). */
  private async send(channel: Channel | null, envelope: string, hash: string): Promise<Sent> {
    let submittedAt = 0;
    const until = Date.now() + this.giveUpMs;
    for (;;) {
      if (Date.now() > until) {
        if (channel) channel.sequence = null;
        throw new Error(`transaction ${hash} not in a ledger after ${this.giveUpMs / 1000} s; it will be looked up again`);
      }
      if (Date.now() - submittedAt >= this.resubmitMs) {
        const out = await this.network.submitTransactionAsync(envelope);
        submittedAt = Date.now();
        if (out.status === 'ERROR') {
          // It may have applied after all (a resubmission of a transaction already in a ledger).
          const found = await this.network.getTransaction(hash);
          if (found) return this.confirmed(channel, envelope, found);
          if (channel) channel.sequence = null;
          return { refused: out.resultCodes?.transaction ?? 'tx_failed' };
        }
        if (out.status === 'TRY_AGAIN_LATER') submittedAt = 0;
      }
      const found = await this.network.getTransaction(hash);
      if (found) return this.confirmed(channel, envelope, found);
      await sleep(this.pollMs);
    }
  }

  private confirmed(channel: Channel | null, envelope: string, found: TransactionView): Sent {
    // In a ledger, failed or not, the transaction consumed the channel's sequence number.
    if (channel) channel.sequence = BigInt(this.inner(envelope).sequence);
    return { confirmed: found };
  }

  private inner(envelope: string): Transaction {
    const env = TransactionBuilder.fromXdr(envelope, this.network.passphrase);
    return env instanceof FeeBumpTransaction ? env.innerTransaction : env;
  }

  /** After a restart: the stored envelope's outcome, or the same envelope again, or (never applicable) a fresh one. */
  private async resume(stored: string, spec: SpecSource, save: Item['save']): Promise<TxOutcome> {
    const tx = this.inner(stored);
    const hash = Buffer.from(TransactionBuilder.fromXdr(stored, this.network.passphrase).hash()).toString('hex');
    const found = await this.network.getTransaction(hash);
    if (found) return this.storedVerdict(tx, found, spec, save);
    await this.channels.ensure();
    const channel = this.channels.isChannel(tx.source) ? await this.channels.lease(tx.source) : null;
    try {
      const sent = await this.send(channel, stored, hash);
      if ('confirmed' in sent) return this.storedVerdict(tx, sent.confirmed, spec, save);
      if (sent.refused === 'tx_bad_seq' || sent.refused === 'try_again_later') return this.enqueue(await spec(), save);
      return { hash, applied: false, successful: false, ledger: null, code: sent.refused };
    } finally {
      if (channel) this.channels.release(channel);
    }
  }

  /** Finds this item's operations in its stored batch to read their outcome. */
  private async storedVerdict(tx: Transaction, found: TransactionView, spec: SpecSource, save: Item['save']): Promise<TxOutcome> {
    const built = await spec();
    const mine = withSources(built, this.treasury.publicKey()).map((op) => op.toXdr('base64'));
    const env = tx.toEnvelope();
    const ops = env.type === 'envelopeTypeTxV0' ? env.v0.tx.operations
      : env.type === 'envelopeTypeTx' ? env.v1.tx.operations : env.feeBump.tx.innerTx.v1.tx.operations;
    const all = ops.map((op) => op.toXdr('base64'));
    let offset = all.findIndex((_, i) => mine.every((m, j) => all[i + j] === m));
    // The spec changed since (it depends on balances): judge by the whole transaction.
    const count = offset < 0 ? all.length : mine.length;
    if (offset < 0) offset = 0;
    const verdict = itemVerdict(found, offset, count);
    return 'done' in verdict ? verdict.done : this.enqueue(built, save);
  }
}
