/**
 * A sandbox ledger that keeps real time (FUNDKIT_SANDBOX_LEDGER_SECONDS > 0), so what is slow
 * or serial on testnet is slow or serial here too. Submitted transactions are admitted into a
 * pending set the way stellar-core's transaction queue admits them — checked against the current
 * state (sequence gaps, signatures, fees, time bounds), at most ONE per source account (a second
 * is TRY_AGAIN_LATER, which is why platforms submit over channel accounts), DUPLICATE when
 * already pending — and applied together when the ledger closes every N seconds, in arrival
 * order, up to a ledger's operation limit (the rest wait for the next close).
 *
 * The queue and the close schedule live in the database (sbx_pending, sbx_state), so servers on
 * one database share one network, as servers on testnet do: a transaction admitted by any of them
 * waits in the one queue (one per source account across all of them), and whichever server finds
 * a close due makes it, in a transaction that checks it is still due — one close per period
 * however many servers run. The others see the new ledger at their next look (a tenth of the
 * period, 250 ms at most), answer their waiting submits from the stored outcome, and wake their
 * streams.
 */
import type { FeeBumpTransaction, Transaction } from '@stellar/stellar-sdk';
import type { ResultCodes } from './shared/types.js';
import { applyTransaction, type Applied, type Clock } from './apply-tx.js';
import { baseAccount } from './operations/context.js';
import { PendingTransactions, type PendingRow } from './pending.js';
import { rejectedResult } from './results-xdr.js';
import type { SandboxStore } from './store.js';
import { checkTransaction } from './validate.js';

/** A transaction's fate at its close: applied (successfully or not), or refused (not in the ledger). */
export type Outcome = { applied: Applied } | { refused: { resultXdr: string; codes: ResultCodes } };

export type Admission =
  | { status: 'PENDING'; hash: string; done: Promise<Outcome> }
  | { status: 'DUPLICATE'; hash: string; done: Promise<Outcome> }
  | { status: 'TRY_AGAIN_LATER'; hash: string }
  | { status: 'ERROR'; hash: string; errorResultXdr: string; codes: ResultCodes };

export interface ClockHost {
  store: SandboxStore;
  /** Unix milliseconds now (injectable for tests). */
  nowMs(): number;
  /** The last closed ledger. */
  ledgerSequence(): Promise<number>;
  decode(envelopeXdr: string): Transaction | FeeBumpTransaction | null;
  /** Reserves the next ledger; inside the close's transaction. */
  closeLedger(): Promise<Clock>;
  /** After a close of this server committed: wake streams and watchers. */
  closed(ledger: number, applied: Applied[]): void;
  /** Ledgers after `from`, up to `to`, were closed by another server: wake streams and watchers. */
  closedElsewhere(from: number, to: number): Promise<void>;
  /** A close that threw (a bug): reported, and the next close goes on. */
  failed(error: unknown): void;
}

/** sbx_state: when the next close is due (Unix ms), shared by every server on the database */
const NEXT_CLOSE = 'clock_next_close_ms';
/** outcomes are kept this long for the submits waiting on them (a server whose look loop stalls longer loses its answers) */
const KEEP_OUTCOMES_MS = 10 * 60_000;

function innerOf(env: Transaction | FeeBumpTransaction): Transaction {
  return 'innerTransaction' in env ? env.innerTransaction : env;
}

/** The transactions of the next ledger: in arrival order, while they fit its operation limit. */
function takeSet(waiting: PendingRow[], maxOps: number): PendingRow[] {
  const set: PendingRow[] = [];
  let ops = 0;
  for (const p of waiting) {
    if (ops + p.ops > maxOps) continue;
    ops += p.ops;
    set.push(p);
  }
  return set;
}

/** What is stored of an outcome: the records are the streams' business, and the history has them. */
function stored(outcome: Outcome): string {
  if ('refused' in outcome) return JSON.stringify(outcome);
  return JSON.stringify({ applied: { ...outcome.applied, records: [] } });
}

const INTERNAL_ERROR: Outcome = { refused: rejectedResult({ name: 'txInternalError', feeCharged: 0n }) };

export class LedgerClock {
  private readonly queue: PendingTransactions;
  /** this server's submits waiting for their close, by hash */
  private readonly waiters = new Map<string, { done: Promise<Outcome>; settle: (outcome: Outcome) => void }>();
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  /** the look in progress, which stop() waits for */
  private looking: Promise<unknown> = Promise.resolve();
  /** the last ledger this server answered its waiters and woke its streams for (null: none yet) */
  private seen: number | null = null;
  private readonly periodMs: number;
  private readonly lookMs: number;
  private readonly keepLedgers: number;

  constructor(private readonly host: ClockHost, readonly seconds: number, readonly maxOps: number) {
    this.queue = new PendingTransactions(host.store.sql);
    this.periodMs = seconds * 1000;
    this.lookMs = Math.min(250, Math.max(20, this.periodMs / 10));
    this.keepLedgers = Math.ceil(KEEP_OUTCOMES_MS / this.periodMs);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  /** Stops looking; resolves once a look in progress (perhaps a close) has ended. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.looking;
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      this.looking = this.look().catch((error: unknown) => {
        try {
          this.host.failed(error);
        } catch {
          // a failing report must not end the clock
        }
        return this.lookMs;
      }).then((next) => { if (this.running) this.schedule(next); });
    }, ms);
    // A server (or test) that is done must be able to exit without stopping the ledger first.
    this.timer.unref();
  }

  /** One look at the shared ledger: catch up with closes made elsewhere, close if due; ms to the next look. */
  private async look(): Promise<number> {
    const firstLook = this.seen === null;
    await this.catchUp(await this.host.ledgerSequence());
    let due = await this.dueMs();
    if (due === 0 || (firstLook && due < this.host.nowMs() - this.periodMs)) {
      // a new ledger, or one every server left a while ago: the first close is a period away, as a timer's would be
      due = this.host.nowMs() + this.periodMs;
      await this.host.store.setState(NEXT_CLOSE, String(due));
    }
    if (this.host.nowMs() >= due) {
      await this.closeIf(true);
      due = await this.dueMs();
    }
    return Math.max(0, Math.min(this.lookMs, due - this.host.nowMs()));
  }

  private async dueMs(): Promise<number> {
    return Number(await this.host.store.getState(NEXT_CLOSE) ?? 0);
  }

  async pendingCount(): Promise<number> {
    return this.queue.waitingCount();
  }

  /** stellar-core's admission: nothing changes until the close. */
  async admit(env: Transaction | FeeBumpTransaction, envelopeXdr: string, hash: string): Promise<Admission> {
    const source = baseAccount(innerOf(env).source);
    // one transaction with the closes (the writer lock, SQLite's one writer): a close takes
    // either all of an admission or none, and the waiter exists before any close can take it
    return this.host.store.sql.transaction(async (): Promise<Admission> => {
      const known = await this.queue.byHash(hash);
      if (known && known.ledger === null) return { status: 'DUPLICATE', hash, done: this.waiterFor(hash) };
      if (await this.queue.sourceWaits(source)) return { status: 'TRY_AGAIN_LATER', hash };
      const checked = await checkTransaction(this.host.store, env, Math.floor(this.host.nowMs() / 1000));
      if ('name' in checked) {
        const { resultXdr, codes } = rejectedResult(checked);
        return { status: 'ERROR', hash, errorResultXdr: resultXdr, codes };
      }
      await this.queue.add({ hash, source, envelope_xdr: envelopeXdr, ops: innerOf(env).operations.length });
      return { status: 'PENDING', hash, done: this.waiterFor(hash) };
    });
  }

  private waiterFor(hash: string): Promise<Outcome> {
    let waiter = this.waiters.get(hash);
    if (!waiter) {
      let settle!: (outcome: Outcome) => void;
      const done = new Promise<Outcome>((resolve) => { settle = resolve; });
      waiter = { done, settle };
      this.waiters.set(hash, waiter);
    }
    return waiter.done;
  }

  private settle(hash: string, outcome: Outcome): void {
    const waiter = this.waiters.get(hash);
    if (!waiter) return;
    this.waiters.delete(hash);
    waiter.settle(outcome);
  }

  /** Closes the next ledger now, due or not (tests and benchmarks step the clock with it). */
  async close(): Promise<number> {
    return (await this.closeIf(false))!;
  }

  /** Closes one ledger with what is waiting (an empty ledger when nothing is), as the network does. */
  private async closeIf(onlyIfDue: boolean): Promise<number | null> {
    const outcomes = new Map<string, Outcome>();
    let taken: PendingRow[] = [];
    let clock: Clock | null;
    try {
      clock = await this.host.store.sql.transaction(async () => {
        const now = this.host.nowMs();
        const due = await this.dueMs();
        if (onlyIfDue) {
          // another server closed it since this one looked
          if (now < due) return null;
          // on the period's grid while the closes keep up; a period from now after a stall
          await this.host.store.setState(NEXT_CLOSE, String(due + this.periodMs > now ? due + this.periodMs : now + this.periodMs));
        }
        // (a forced close, closeNow, leaves the schedule alone: the clock's next close comes when it would have)
        const c = await this.host.closeLedger();
        taken = takeSet(await this.queue.waiting(), this.maxOps);
        let order = 0;
        for (const p of taken) {
          const outcome = await this.apply(p, c, order + 1);
          if ('applied' in outcome) order += 1;
          outcomes.set(p.hash, outcome);
          await this.queue.take(p.hash, c.ledger, stored(outcome));
        }
        await this.queue.prune(c.ledger - this.keepLedgers);
        return c;
      });
    } catch (error) {
      await this.refuse(taken);
      throw error;
    }
    if (!clock) return null;
    for (const [hash, outcome] of outcomes) this.settle(hash, outcome);
    const from = this.seen ?? clock.ledger - 1;
    this.seen = Math.max(from, clock.ledger);
    // ledgers closed elsewhere since this server last looked come first, as they did on the network
    if (clock.ledger - 1 > from) await this.observe(from, clock.ledger - 1).catch((error: unknown) => this.host.failed(error));
    this.host.closed(clock.ledger, [...outcomes.values()].flatMap((o) => ('applied' in o ? [o.applied] : [])));
    return clock.ledger;
  }

  private async apply(p: PendingRow, c: Clock, txOrder: number): Promise<Outcome> {
    const env = this.host.decode(p.envelope_xdr);
    if (!env) return INTERNAL_ERROR;
    // Re-checked at close: time bounds may have passed, a sequence may have been consumed.
    const checked = await checkTransaction(this.host.store, env, c.closeTime);
    if ('name' in checked) return { refused: rejectedResult(checked) };
    return { applied: await applyTransaction(this.host.store, env, p.envelope_xdr, checked, { ...c, txOrder }) };
  }

  /**
   * Nothing of a failed close committed: its transactions are refused, never left hanging. Only
   * those still waiting: another server may have closed them meanwhile (their submits hear of it
   * when this server next looks), and if this refusal fails too, they wait for the next close.
   */
  private async refuse(taken: PendingRow[]): Promise<void> {
    if (taken.length === 0) return;
    const refused = await this.host.store.sql.transaction(async () => {
      const ledger = await this.host.ledgerSequence();
      const changed: string[] = [];
      for (const p of taken) if (await this.queue.take(p.hash, ledger, stored(INTERNAL_ERROR))) changed.push(p.hash);
      return changed;
    }).catch(() => [] as string[]);
    for (const hash of refused) this.settle(hash, INTERNAL_ERROR);
  }

  /** Ledgers up to `ledger` that this server has not seen were closed elsewhere. */
  private async catchUp(ledger: number): Promise<void> {
    if (this.seen === null) {
      this.seen = ledger;
      // a submit admitted before this first look may have been closed elsewhere already
      await this.answerTaken();
      return;
    }
    const from = this.seen;
    if (ledger <= from) return;
    this.seen = ledger;
    await this.observe(from, ledger);
  }

  /** Another server closed ledgers after `from` up to `to`: answer this server's submits they took, wake its streams. */
  private async observe(from: number, to: number): Promise<void> {
    await this.answerTaken();
    await this.host.closedElsewhere(from, to);
  }

  /** This server's submits whose transactions a close has taken get its outcome. */
  private async answerTaken(): Promise<void> {
    for (const row of await this.queue.taken([...this.waiters.keys()])) this.settle(row.hash, JSON.parse(row.outcome!) as Outcome);
  }
}
