/**
 * The ledger follower: one cursor per network (a ledger sequence), advanced ledger by ledger.
 * Each read takes every closed ledger after the cursor at once, for every account (the way the
 * Anchor Platform moved from a stream per account to one filtered stream): its payments are
 * matched against the deposit accounts Fundkit watches with one database lookup, handed to the
 * observer (idempotent by operation id), and only then is the cursor saved. A crash replays a
 * ledger, never skips one. A closed ledger is final on Stellar: what was read needs no second
 * request. Requests depend on the network's traffic, never on how many intents are open.
 */
import type { Logger } from 'pino';
import type { HorizonPaymentRecord, LedgerRead, StellarNetwork } from '../stellar/index.js';
import { LedgerGapError, RateLimitedError } from '../stellar/index.js';
import type { CursorRepo } from './cursor-repo.js';
import type { WatchRepo } from './watch-repo.js';

export interface FollowerDeps {
  network: StellarNetwork;
  networkName: string;
  cursors: CursorRepo;
  watch: WatchRepo;
  /** the observer's one-record transaction: false when the record must come again (its intent is not recorded yet, an error) */
  handle: (address: string, record: HorizonPaymentRecord) => Promise<boolean>;
  logger: Logger;
  /** the network's ledger interval, to read again about when the next ledger closes (0: read when woken, or every `idleMs`) */
  ledgerMs: number;
  /** the longest wait between reads when nothing says a ledger closed */
  idleMs: number;
  /** ledgers per read */
  maxLedgers?: number;
}

/** Every account a record brings money (or an account) to: an invocation may pay several. */
export function receiversOf(record: HorizonPaymentRecord): string[] {
  switch (record.type) {
    case 'create_account': return [record.account];
    case 'account_merge': return [record.into];
    case 'invoke_host_function': return [...new Set((record.asset_balance_changes ?? []).flatMap((c) => ((c.type === 'transfer' || c.type === 'mint') && c.to ? [c.to] : [])))];
    default: return [record.to];
  }
}

const MAX_BACKOFF_MS = 60_000;

export class LedgerFollower {
  private nextAt = 0;
  /** wakes so far: one that comes while a read is under way must outlive the schedule that read sets */
  private wakes = 0;
  private failures = 0;
  private tip: number | null = null;
  private caughtUp: number | null = null;
  /** set when the source no longer has the ledger the cursor needs: the follower stops rather than skip */
  private gap: LedgerGapError | NetworkBehindError | null = null;
  /** when the tip was last seen to move, and the ledger interval measured from it (ms) */
  private advanced: { ledger: number; at: number } | null = null;
  private intervalMs: number | null = null;

  constructor(private readonly deps: FollowerDeps) {}

  /** The last ledger all of whose payments are processed (null before the first read). */
  get caughtUpLedger(): number | null {
    return this.caughtUp;
  }

  /** The network's tip at the last read. */
  get latestLedger(): number | null {
    return this.tip;
  }

  /** Why the follower stopped, if it did: /readyz and the logs say it. */
  get halted(): string | null {
    return this.gap?.message ?? null;
  }

  /** A ledger closed (the sandbox says so), or something was paid: read now. */
  wake(): void {
    this.wakes += 1;
    if (!this.gap && this.failures === 0) this.nextAt = 0;
  }

  due(now = Date.now()): boolean {
    return now >= this.nextAt;
  }

  /**
   * The cursor in force; set on the first start to the ledger before the tip (no deposit account
   * of ours exists in an older one). After an upgrade from a stream per account, before the
   * oldest record those streams had not processed: an account's last record, or the ledger that
   * created it when it had none (its creation's transaction, looked up once), else the tip.
   */
  private async cursor(): Promise<number> {
    const { cursors, networkName, network, watch } = this.deps;
    const saved = await cursors.get(networkName);
    if (saved !== null) return saved;
    const tip = await network.latestLedger();
    let oldest = tip;
    for (const row of await watch.active(networkName)) {
      const from = row.cursor ? Number(BigInt(row.cursor) >> 32n)
        : row.provision_tx_hash ? (await network.getTransaction(row.provision_tx_hash).catch(() => null))?.ledger ?? tip : tip;
      oldest = Math.min(oldest, from);
    }
    return cursors.init(networkName, Math.max(0, oldest - 1));
  }

  /** Sets the first cursor (the pipeline's start, before any deposit account exists); once set, costs nothing. */
  async init(): Promise<void> {
    if (this.caughtUp === null) this.caughtUp = await this.cursor();
  }

  /**
   * Reads until caught up with the tip, or until a read says to wait. A stopped follower tries
   * again once a minute (it stops again, loudly, until the operator points it at a source with
   * the history, or sets its cursor).
   */
  async run(): Promise<void> {
    const wakes = this.wakes;
    try {
      for (;;) {
        const more = await this.pass();
        this.failures = 0;
        if (!more) break;
      }
    } catch (error) {
      this.failed(error);
      return;
    }
    // a ledger closed while the read was under way, perhaps after the source answered: read
    // again now rather than at the schedule the read set (idleMs away on the sandbox)
    if (this.wakes !== wakes) this.nextAt = 0;
  }

  /** One read and what it brought: true when more closed ledgers are waiting. */
  private async pass(): Promise<boolean> {
    const cursor = await this.cursor();
    this.caughtUp ??= cursor;
    const read = await this.deps.network.readLedgers(cursor + 1, this.deps.maxLedgers ?? 50);
    // a tip behind the cursor: the network was reset (testnet, a re-created local network) or is
    // another one; reading on would skip every payment below the old cursor once the tip passes it
    if (read.latest < cursor) throw new NetworkBehindError(read.latest, cursor, this.deps.networkName);
    this.gap = null;
    this.measure(read.latest);
    this.tip = read.latest;
    if (read.through <= cursor) {
      this.schedule(read);
      return false;
    }
    const done = await this.apply(read, cursor);
    if (done > cursor) await this.deps.cursors.advance(this.deps.networkName, done);
    this.caughtUp = done;
    if (done < read.through) {
      // a record that must come again (its intent not yet recorded): read again shortly, from it
      this.nextAt = Date.now() + Math.min(1000, this.deps.idleMs);
      return false;
    }
    if (done < read.latest) return true;
    this.schedule(read);
    return false;
  }

  /** Hands the watched accounts' records to the observer in order; returns the last ledger fully processed. */
  private async apply(read: LedgerRead, cursor: number): Promise<number> {
    const receivers = [...new Set(read.records.flatMap(receiversOf))];
    const watched = await this.deps.watch.watchedAmong(this.deps.networkName, receivers);
    for (const record of read.records) {
      for (const address of receiversOf(record)) {
        if (!watched.has(address)) continue;
        if (!await this.deps.handle(address, record)) return Math.max(cursor, ledgerOf(record) - 1);
      }
    }
    return read.through;
  }

  /** The network's ledger interval, from how fast its tip moves (a custom network may close every second). */
  private measure(latest: number): void {
    const now = Date.now();
    if (this.advanced && latest > this.advanced.ledger) {
      const sample = (now - this.advanced.at) / (latest - this.advanced.ledger);
      // a halted network or a frozen source gives one huge sample: it would push reads minutes apart
      if (sample <= 3 * this.deps.ledgerMs) this.intervalMs = this.intervalMs === null ? sample : 0.7 * this.intervalMs + 0.3 * sample;
    }
    if (!this.advanced || latest > this.advanced.ledger) this.advanced = { ledger: latest, at: now };
  }

  /**
   * Caught up: read again a little after the next ledger should close (the last close plus one
   * interval), so one read usually finds it; at least 250 ms apart, at most two intervals.
   */
  private schedule(read: LedgerRead): void {
    const { ledgerMs, idleMs } = this.deps;
    if (ledgerMs <= 0) {
      this.nextAt = Date.now() + idleMs;
      return;
    }
    const interval = this.intervalMs ?? ledgerMs;
    // the later of the close the source states (whole seconds on RPC) and when the tip was seen to move
    const closedAt = Math.max(read.latestClosedAtMs ?? 0, this.advanced?.at ?? 0) || Date.now();
    const expected = closedAt + interval * 1.1 + 100;
    this.nextAt = Math.min(Math.max(Date.now() + 250, expected), Date.now() + 2 * interval);
  }

  private failed(error: unknown): void {
    if (error instanceof LedgerGapError || error instanceof NetworkBehindError) {
      this.gap = error;
      this.deps.logger.error({ network: this.deps.networkName, err: error }, 'ledger follower stopped: the source no longer has the ledgers it needs');
      this.nextAt = Date.now() + MAX_BACKOFF_MS;
      return;
    }
    this.failures += 1;
    const backoff = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(this.failures - 1, 6));
    const wait = error instanceof RateLimitedError && error.retryAfterMs !== null ? Math.max(error.retryAfterMs, backoff) : backoff;
    this.nextAt = Date.now() + wait;
    this.deps.logger.warn({ network: this.deps.networkName, err: error, retryInMs: wait }, 'ledger follower could not read the network; retrying');
  }
}

/** The network's tip is behind the follower's cursor: reset, or another network under the same name. */
export class NetworkBehindError extends Error {
  constructor(readonly latest: number, readonly cursor: number, network: string) {
    super(`the ${network} network's latest ledger (${latest}) is behind the follower's cursor (${cursor}): the network was reset, or the server `
      + 'now reaches another network. Its payments would be skipped until it passes the cursor: point the server at the network its database '
      + 'followed, or give it a new database (or delete its row in network_cursors) for the new network');
    this.name = 'NetworkBehindError';
  }
}

/** The ledger of a record: its operation id is a TOID (ledger << 32 | order << 12 | index). */
export function ledgerOf(record: HorizonPaymentRecord): number {
  return Number(BigInt(record.id) >> 32n);
}
