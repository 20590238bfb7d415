/**
 * A sandbox ledger that keeps real time (FUNDKIT_SANDBOX_LEDGER_SECONDS > 0), so what is slow
 * or serial on testnet is slow or serial here too. Submitted transactions are admitted into a
 * pending set the way stellar-core's transaction queue admits them — checked against the current
 * state (sequence gaps, signatures, fees, time bounds), at most ONE per source account (a second
 * is TRY_AGAIN_LATER, which is why platforms submit over channel accounts), DUPLICATE when
 * already pending — and applied together when the ledger closes every N seconds, in arrival
 * order, up to a ledger's operation limit (the rest wait for the next close).
 */
import type { FeeBumpTransaction, Transaction } from '@stellar/stellar-sdk';
import type { ResultCodes } from '../network.js';
import { applyTransaction, type Applied, type Clock } from './apply-tx.js';
import { rejectedResult } from './results-xdr.js';
import type { SandboxStore } from './store.js';
import { checkTransaction, type Rejected } from './validate.js';
import { baseAccount } from './operations/context.js';

export type Admission =
  | { status: 'PENDING'; hash: string; done: Promise<Applied | Rejected> }
  | { status: 'DUPLICATE'; hash: string; done: Promise<Applied | Rejected> | null }
  | { status: 'TRY_AGAIN_LATER'; hash: string }
  | { status: 'ERROR'; hash: string; errorResultXdr: string; codes: ResultCodes };

interface Pending {
  hash: string;
  env: Transaction | FeeBumpTransaction;
  envelopeXdr: string;
  source: string;
  ops: number;
  settle: (outcome: Applied | Rejected) => void;
  done: Promise<Applied | Rejected>;
}

export interface ClockHost {
  store: SandboxStore;
  /** Unix seconds now (injectable for tests). */
  nowSeconds(): number;
  /** Reserves the next ledger; inside the close's SQLite transaction. */
  closeLedger(): Promise<Clock>;
  /** After the close committed: wake streams and watchers. */
  closed(ledger: number, applied: Applied[]): void;
  /** A close that threw (a bug): reported, and the next close goes on. */
  failed(error: unknown): void;
}

function innerOf(env: Transaction | FeeBumpTransaction): Transaction {
  return 'innerTransaction' in env ? env.innerTransaction : env;
}

export class LedgerClock {
  private readonly pending = new Map<string, Pending>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly host: ClockHost, readonly seconds: number, readonly maxOps: number) {}

  start(): void {
    if (this.timer) return;
    let closing = false;
    this.timer = setInterval(() => {
      // a close that outlasts the interval is not overlapped by the next one
      if (closing) return;
      closing = true;
      void this.close().catch((error: unknown) => this.host.failed(error)).finally(() => { closing = false; });
    }, this.seconds * 1000);
    // A server (or test) that is done must be able to exit without stopping the ledger first.
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  /** stellar-core's admission: nothing changes until the close. */
  async admit(env: Transaction | FeeBumpTransaction, envelopeXdr: string, hash: string): Promise<Admission> {
    const known = this.pending.get(hash);
    if (known) return { status: 'DUPLICATE', hash, done: known.done };
    const source = baseAccount(innerOf(env).source);
    if ([...this.pending.values()].some((p) => p.source === source)) return { status: 'TRY_AGAIN_LATER', hash };
    const checked = await checkTransaction(this.host.store, env, this.host.nowSeconds());
    if ('name' in checked) {
      const { resultXdr, codes } = rejectedResult(checked);
      return { status: 'ERROR', hash, errorResultXdr: resultXdr, codes };
    }
    let settle!: (outcome: Applied | Rejected) => void;
    const done = new Promise<Applied | Rejected>((resolve) => { settle = resolve; });
    this.pending.set(hash, { hash, env, envelopeXdr, source, ops: innerOf(env).operations.length, settle, done });
    return { status: 'PENDING', hash, done };
  }

  /** The transactions of the next ledger: in arrival order, while they fit its operation limit. */
  private takeSet(): Pending[] {
    const set: Pending[] = [];
    let ops = 0;
    for (const p of this.pending.values()) {
      if (ops + p.ops > this.maxOps) continue;
      ops += p.ops;
      set.push(p);
    }
    for (const p of set) this.pending.delete(p.hash);
    return set;
  }

  /** Closes one ledger with what is pending (an empty ledger when nothing is), as the network does. */
  async close(): Promise<number> {
    const set = this.takeSet();
    const outcomes = new Map<string, Applied | Rejected>();
    const closeAll = () => this.host.store.sql.transaction(async () => {
      const c = await this.host.closeLedger();
      let order = 0;
      for (const p of set) {
        // Re-checked at close: time bounds may have passed, a sequence may have been consumed.
        const checked = await checkTransaction(this.host.store, p.env, c.closeTime);
        if ('name' in checked) {
          outcomes.set(p.hash, checked);
          continue;
        }
        order += 1;
        outcomes.set(p.hash, await applyTransaction(this.host.store, p.env, p.envelopeXdr, checked, { ...c, txOrder: order }));
      }
      return c;
    });
    let clock: Clock;
    try {
      clock = await closeAll();
    } catch (error) {
      // Nothing of this ledger committed: its transactions are refused, never left hanging.
      for (const p of set) p.settle({ name: 'txInternalError', feeCharged: 0n });
      throw error;
    }
    const applied = [...outcomes.values()].filter((o): o is Applied => !('name' in o));
    this.host.closed(clock.ledger, applied);
    for (const p of set) p.settle(outcomes.get(p.hash)!);
    return clock.ledger;
  }
}
