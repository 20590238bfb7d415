/**
 * Follows one account's payments: backfill by paging from the last processed cursor, then
 * stream from it. The cursor advances only after `onRecord` resolved, so any failure (stream
 * error, silence, a throwing or refusing handler, a process crash) resumes from the last record
 * that was actually processed: never skipped, never jumped to "now". Every step runs on one
 * serial queue, so records arrive in order and a restart never overlaps an in-flight delivery.
 */
import type { HorizonPaymentRecord } from '../horizon-types.js';
import { tokenAfter } from './records.js';

export interface WatchTiming {
  /** A stream with no record for this long is closed and restarted (Horizon may stall silently). */
  silenceMs: number;
  backoffBaseMs: number;
  backoffCapMs: number;
  pageLimit: number;
}

export const DEFAULT_TIMING: WatchTiming = { silenceMs: 30_000, backoffBaseMs: 500, backoffCapMs: 30_000, pageLimit: 200 };

export interface StreamHandlers {
  onmessage: (record: HorizonPaymentRecord) => void;
  onerror: (error: unknown) => void;
}

/** What the watcher needs from Horizon; the network implements it with Horizon.Server. */
export interface WatchSource {
  page(account: string, cursor: string, limit: number): Promise<HorizonPaymentRecord[]>;
  stream(account: string, cursor: string, handlers: StreamHandlers): () => void;
}

/** false (or a throw) means "not processed": the record is delivered again after a restart. */
export type RecordHandler = (record: HorizonPaymentRecord) => unknown;

export interface WatcherHooks {
  /** Called after onRecord resolved, before the watcher moves past the record. */
  saveCursor?: (pagingToken: string) => unknown;
  onRestart?: (reason: string, delayMs: number) => void;
}

export class PaymentWatcher {
  private generation = 0;
  private failures = 0;
  private stopped = false;
  private queue: Promise<void> = Promise.resolve();
  private closeStream: (() => void) | null = null;
  private silence: NodeJS.Timeout | null = null;
  private restart: NodeJS.Timeout | null = null;

  constructor(
    private readonly account: string,
    /** Last processed paging token; '' = from the account's first payment. */
    private last: string,
    private readonly onRecord: RecordHandler,
    private readonly source: WatchSource,
    private readonly timing: WatchTiming,
    private readonly hooks: WatcherHooks = {},
  ) {}

  get cursor(): string {
    return this.last;
  }

  start(): void {
    this.enqueue(() => this.begin());
  }

  stop(): void {
    this.stopped = true;
    this.generation += 1;
    this.teardown();
    if (this.restart) clearTimeout(this.restart);
  }

  private enqueue(task: () => Promise<void>): void {
    // every task handles its own errors; the catch only keeps one bug from wedging the queue
    this.queue = this.queue.then(task).catch(() => undefined);
  }

  /** One (re)start: backfill until empty, then stream from the last processed cursor. */
  private async begin(): Promise<void> {
    if (this.stopped) return;
    const gen = ++this.generation;
    try {
      await this.backfill(gen);
      if (gen === this.generation) this.openStream(gen);
    } catch (error) {
      this.fail(gen, `backfill: ${describe(error)}`);
    }
  }

  private async backfill(gen: number): Promise<void> {
    for (;;) {
      const records = await this.source.page(this.account, this.last, this.timing.pageLimit);
      if (records.length === 0) return;
      for (const record of records) {
        if (gen !== this.generation) return;
        await this.deliver(record);
      }
    }
  }

  private openStream(gen: number): void {
    this.armSilence(gen);
    this.closeStream = this.source.stream(this.account, this.last, {
      onmessage: (record) => {
        if (gen !== this.generation) return;
        this.armSilence(gen);
        this.enqueue(() => this.fromStream(gen, record));
      },
      onerror: (error) => this.fail(gen, `stream: ${describe(error)}`),
    });
  }

  private async fromStream(gen: number, record: HorizonPaymentRecord): Promise<void> {
    // a record queued by a stream that has since been replaced is re-read by the next backfill
    if (gen !== this.generation) return;
    try {
      if (await this.deliver(record)) this.failures = 0;
    } catch (error) {
      this.fail(gen, `record ${record.paging_token}: ${describe(error)}`);
    }
  }

  /** Returns true when the record was new; throws when the handler did not process it. */
  private async deliver(record: HorizonPaymentRecord): Promise<boolean> {
    if (!tokenAfter(record.paging_token, this.last)) return false;
    // the sandbox never delivers failed transactions (no include_failed); neither do we
    if (record.transaction_successful !== false && (await this.onRecord(record)) === false) {
      throw new Error('handler did not process it');
    }
    await this.hooks.saveCursor?.(record.paging_token);
    this.last = record.paging_token;
    return true;
  }

  private armSilence(gen: number): void {
    if (this.silence) clearTimeout(this.silence);
    this.silence = setTimeout(() => this.fail(gen, `silent for ${this.timing.silenceMs} ms`), this.timing.silenceMs);
  }

  private teardown(): void {
    if (this.silence) clearTimeout(this.silence);
    this.silence = null;
    this.closeStream?.();
    this.closeStream = null;
  }

  /** Closes the current stream and schedules a restart with exponential backoff. */
  private fail(gen: number, reason: string): void {
    if (this.stopped || gen !== this.generation) return;
    this.generation += 1;
    this.teardown();
    const delay = Math.min(this.timing.backoffCapMs, this.timing.backoffBaseMs * 2 ** this.failures);
    this.failures += 1;
    this.hooks.onRestart?.(reason, delay);
    this.restart = setTimeout(() => this.enqueue(() => this.begin()), delay);
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : 'error';
}
