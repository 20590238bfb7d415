/**
 * The embedded sandbox ledger: one SQLite-backed Stellar-like ledger that accepts real signed
 * envelopes. By default each accepted transaction closes its own ledger (instant finality for
 * tests and the quickstart); with `ledgerSeconds` it keeps real time (clock.ts).
 */
import type { Db } from './sql/connection.js';
import { sqlOf, SqliteSql, type SqlSource } from './sql/sql.js';
import { txHash } from './tx-hash.js';
import { EventEmitter } from 'node:events';
import { FeeBumpTransaction, Networks, TransactionBuilder, type Transaction } from '@stellar/stellar-sdk';
import { assetKey, type AssetRef } from './shared/assets.js';
import type {
  HorizonEffect, HorizonLedger, HorizonOperationRecord, HorizonPaymentRecord, HorizonTransaction,
} from './shared/horizon-types.js';
import type { PathQuote, ResultCodes, StrictReceiveQuery, StrictSendQuery } from './shared/types.js';
import { applyTransaction, type Applied, type Clock } from './apply-tx.js';
import { LedgerClock, type ClockHost } from './clock.js';
import {
  getOperation, getTransaction, latestRecordId, listAccountIds, listEffects, listOperations, listRecords,
  listTransactions, type EffectCursor, type HistoryFilter, type HistoryQuery, type Page,
  listLedgerPayments,
} from './history.js';
import { elderLedger, getLedger, listLedgers, MAX_TX_SET_SIZE, openLedger } from './ledgers.js';
import { findStrictReceive, findStrictSend } from './paths.js';
import { isPayment } from './records.js';
import { rejectedResult, txResult } from './results-xdr.js';
import { ensureSandboxTables } from './schema.js';
import { SandboxStore } from './store.js';
import { checkTransaction, type Rejected } from './validate.js';
import { ensureAccountAndTrustline, fundAccount, hasAccountAndTrustline } from './faucet.js';

/** Stellar quickstart's local-network passphrase; wallets and the SDK know it (Networks.STANDALONE). */
export const SANDBOX_PASSPHRASE: string = Networks.STANDALONE;

export interface SandboxLedgerOptions {
  passphrase?: string;
  /** Injected clock (ms) so tests can exercise time bounds. */
  now?: () => number;
  /** Seconds between ledger closes; 0 (the default) closes one ledger per transaction at once. */
  ledgerSeconds?: number;
  /** Operations one ledger applies at most (default 1,000); the rest wait for the next close. */
  maxOpsPerLedger?: number;
}

/** Horizon's POST /transactions_async answer (tx_status and hash; errorResultXdr on ERROR). */
export interface AsyncSubmitOutcome {
  status: 'PENDING' | 'DUPLICATE' | 'ERROR' | 'TRY_AGAIN_LATER';
  hash: string;
  errorResultXdr?: string;
  codes?: ResultCodes;
}

export type SubmitOutcome =
  | { status: 'malformed'; envelopeXdr: string }
  | { status: 'rejected'; hash: string; envelopeXdr: string; resultXdr: string; codes: ResultCodes }
  | {
      status: 'applied'; hash: string; ledger: number; successful: boolean; envelopeXdr: string;
      resultXdr: string; codes: ResultCodes; resource: HorizonTransaction;
    }
  /** Clocked ledgers only: this source already has a transaction pending; submit after the close. */
  | { status: 'try_again_later'; hash: string; envelopeXdr: string };

export class SandboxLedger {
  readonly store: SandboxStore;
  readonly passphrase: string;
  /**
   * Emits 'records' (HorizonPaymentRecord[]) after a ledger with payments commits, and 'ledger'
   * (its sequence) after every ledger close commits: streams re-read from their cursor then.
   */
  readonly events = new EventEmitter();
  /** Present when the ledger keeps real time; null closes a ledger per transaction. */
  readonly clock: LedgerClock | null;
  private readonly now: () => number;

  /**
   * On a SQLite connection (or an executor over one that shows it as `db`, this package's or a
   * host's) the tables are made if missing; on PostgreSQL the host's migrations made them (the
   * Fundkit server's 020 and 025).
   */
  constructor(source: SqlSource, options: SandboxLedgerOptions = {}) {
    const sql = sqlOf(source);
    const connection = sql instanceof SqliteSql ? sql.db : sql.dialect === 'sqlite' && 'db' in sql ? (sql as { db: Db }).db : null;
    if (connection) ensureSandboxTables(connection);
    this.store = new SandboxStore(sql);
    this.passphrase = options.passphrase ?? SANDBOX_PASSPHRASE;
    this.now = options.now ?? Date.now;
    this.events.setMaxListeners(0);
    const seconds = options.ledgerSeconds ?? 0;
    this.clock = seconds > 0 ? new LedgerClock(this.clockHost(), seconds, options.maxOpsPerLedger ?? MAX_TX_SET_SIZE) : null;
  }

  private clockHost(): ClockHost {
    return {
      store: this.store,
      nowMs: () => this.now(),
      ledgerSequence: () => this.ledgerSequence(),
      decode: (envelopeXdr) => this.decode(envelopeXdr),
      closeLedger: () => this.closeLedger(),
      closed: (ledger, applied) => this.announce(ledger, applied.flatMap((a) => a.records)),
      closedElsewhere: (from, to) => this.announceElsewhere(from, to),
      failed: (error) => {
        // nobody may listen: a failed close must not become an uncaught 'error' event
        if (this.events.listenerCount('error') > 0) this.events.emit('error', error);
        else process.stderr.write(`[fundkit] sandbox ledger close failed: ${String((error as Error)?.stack ?? error)}\n`);
      },
    };
  }

  /** Starts closing ledgers on the clock (no-op for an instant ledger). */
  start(): void {
    this.clock?.start();
  }

  /** Stops the clock; resolves once a close in progress has ended. */
  async stop(): Promise<void> {
    await this.clock?.stop();
  }

  private announce(ledger: number, records: HorizonPaymentRecord[]): void {
    this.events.emit('ledger', ledger);
    if (records.length > 0) this.events.emit('records', records);
  }

  /**
   * Another server on this database closed ledgers after `from` up to `to`: streams and watchers
   * here hear of them as if this server had closed them (the last 100 at most: watchers of the
   * older ones catch up from their cursors anyway).
   */
  private async announceElsewhere(from: number, to: number): Promise<void> {
    for (let ledger = Math.max(from + 1, to - 99); ledger <= to; ledger++) {
      const records: HorizonPaymentRecord[] = [];
      for (let cursor: bigint | undefined; ;) {
        const page = await listOperations(this.store, { ledger, paymentsOnly: true }, { limit: 200, order: 'asc', ...(cursor === undefined ? {} : { cursor }) });
        records.push(...page.filter(isPayment));
        if (page.length < 200) break;
        cursor = BigInt(page.at(-1)!.paging_token);
      }
      this.announce(ledger, records);
    }
  }

  /** The last closed ledger (1 = genesis). */
  async ledgerSequence(): Promise<number> {
    return Number(await this.store.getState('ledger') ?? '1');
  }

  /** Reserves the next ledger number and its close time; call inside a SQLite transaction. */
  async closeLedger(): Promise<Clock> {
    const ledger = await this.ledgerSequence() + 1;
    await this.store.setState('ledger', String(ledger));
    const ms = this.now();
    const clock = { ledger, closeTime: Math.floor(ms / 1000), createdAt: new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z') };
    await openLedger(this.store, ledger, clock.closeTime, clock.createdAt);
    return clock;
  }

  private decode(envelopeXdr: string): Transaction | FeeBumpTransaction | null {
    try {
      return TransactionBuilder.fromXdr(envelopeXdr, this.passphrase);
    } catch {
      return null;
    }
  }

  /**
   * Applies a transaction in a ledger of its own at once. Instant ledgers only: a clocked
   * ledger applies transactions at its close (submitAndWait, submitAsync).
   */
  async submit(envelopeXdr: string): Promise<SubmitOutcome> {
    if (this.clock) throw new Error('a clocked sandbox ledger applies transactions at its close: use submitAndWait');
    const env = this.decode(envelopeXdr);
    if (!env) return { status: 'malformed', envelopeXdr };
    const applied = await this.store.sql.transaction(async () => {
      const checked = await checkTransaction(this.store, env, Math.floor(this.now() / 1000));
      if ('name' in checked) return checked;
      return applyTransaction(this.store, env, envelopeXdr, checked, await this.closeLedger());
    });
    const outcome = this.outcome(txHash(env).toString('hex'), envelopeXdr, applied);
    if (!('name' in applied)) this.announce(applied.ledger, applied.records);
    return outcome;
  }

  private outcome(hash: string, envelopeXdr: string, applied: Applied | Rejected): SubmitOutcome {
    if ('name' in applied) {
      return { status: 'rejected', hash, envelopeXdr, ...rejectedResult(applied) };
    }
    const { records: _, ...rest } = applied;
    return { status: 'applied', envelopeXdr, ...rest };
  }

  /** POST /transactions: answers once the transaction's ledger closed (at once when instant). */
  async submitAndWait(envelopeXdr: string): Promise<SubmitOutcome> {
    if (!this.clock) return this.submit(envelopeXdr);
    const env = this.decode(envelopeXdr);
    if (!env) return { status: 'malformed', envelopeXdr };
    const hash = txHash(env).toString('hex');
    const admitted = await this.clock.admit(env, envelopeXdr, hash);
    if (admitted.status === 'TRY_AGAIN_LATER') return { status: 'try_again_later', hash, envelopeXdr };
    if (admitted.status === 'ERROR') {
      return { status: 'rejected', hash, envelopeXdr, resultXdr: admitted.errorResultXdr, codes: admitted.codes };
    }
    const closed = await admitted.done;
    if ('refused' in closed) return { status: 'rejected', hash, envelopeXdr, ...closed.refused };
    return this.outcome(hash, envelopeXdr, closed.applied);
  }

  /** POST /transactions_async: admitted (PENDING) or refused at once; applied at the close. */
  async submitAsync(envelopeXdr: string): Promise<AsyncSubmitOutcome> {
    const env = this.decode(envelopeXdr);
    if (!env) {
      return { status: 'ERROR', hash: '', errorResultXdr: txResult(0n, 'txMalformed').toXdr('base64'), codes: { transaction: 'tx_malformed' } };
    }
    const hash = txHash(env).toString('hex');
    if (!this.clock) {
      const out = await this.submit(envelopeXdr);
      if (out.status === 'rejected') return { status: 'ERROR', hash, errorResultXdr: out.resultXdr, codes: out.codes };
      return { status: 'PENDING', hash };
    }
    const admitted = await this.clock.admit(env, envelopeXdr, hash);
    if (admitted.status === 'ERROR') return { status: 'ERROR', hash, errorResultXdr: admitted.errorResultXdr, codes: admitted.codes };
    return { status: admitted.status, hash };
  }

  /** Closes the next ledger now (clocked ledgers; tests and benchmarks step the clock with it). */
  async closeNow(): Promise<number> {
    if (!this.clock) throw new Error('an instant sandbox ledger closes a ledger per transaction');
    return this.clock.close();
  }

  /**
   * Friendbot-like faucet: creates the account if needed and credits XLM or an issued asset.
   * An instant ledger closes a ledger for it; a clocked one writes into the current ledger, so
   * funding never shifts the ledger clock.
   */
  async fund(address: string, asset: AssetRef, amount: bigint): Promise<void> {
    await this.directWrite((clock) => fundAccount(this.store, clock, address, assetKey(asset), amount));
  }

  /** The account and its trustline to `asset` exist afterwards (idempotent; no write when they do). */
  async ensure(address: string, asset: AssetRef): Promise<void> {
    const key = assetKey(asset);
    if (await hasAccountAndTrustline(this.store, address, key)) return;
    await this.directWrite((clock) => ensureAccountAndTrustline(this.store, clock, address, key));
  }

  /**
   * A write no transaction makes (the faucet, sandbox conveniences), in one SQLite transaction:
   * an instant ledger closes a ledger for it; a clocked one writes into the current ledger, so
   * such writes never shift the ledger clock.
   */
  async directWrite(write: (clock: Clock) => Promise<void> | void): Promise<void> {
    const clock = await this.store.sql.transaction(async () => {
      const c = this.clock ? await this.currentClock() : await this.closeLedger();
      await write(c);
      return c;
    });
    if (!this.clock) this.announce(clock.ledger, []);
  }

  private async currentClock(): Promise<Clock> {
    const ms = this.now();
    return { ledger: await this.ledgerSequence(), closeTime: Math.floor(ms / 1000), createdAt: new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z') };
  }

  async getTransaction(hash: string): Promise<HorizonTransaction | undefined> {
    return getTransaction(this.store, hash);
  }

  async listPayments(q: HistoryQuery): Promise<HorizonPaymentRecord[]> {
    return listRecords(this.store, q);
  }

  /** Every account's successful payment records of ledgers from..through (the ledger follower). */
  async ledgerPayments(from: number, through: number): Promise<HorizonPaymentRecord[]> {
    return listLedgerPayments(this.store, from, through);
  }

  async latestPagingToken(): Promise<bigint> {
    return latestRecordId(this.store);
  }

  /** A cursor after everything already closed, for "cursor=now" on any history list. */
  async nowToken(): Promise<bigint> {
    return (BigInt(await this.ledgerSequence() + 1) << 32n) - 1n;
  }

  async listTransactions(f: HistoryFilter, p: Page<bigint>): Promise<HorizonTransaction[]> {
    return listTransactions(this.store, f, p);
  }

  async listOperations(f: HistoryFilter & { paymentsOnly?: boolean }, p: Page<bigint>): Promise<HorizonOperationRecord[]> {
    return listOperations(this.store, f, p);
  }

  async getOperation(id: bigint): Promise<HorizonOperationRecord | undefined> {
    return getOperation(this.store, id);
  }

  async listEffects(f: HistoryFilter & { operation?: bigint }, p: Page<EffectCursor>): Promise<HorizonEffect[]> {
    return listEffects(this.store, f, p);
  }

  async getLedger(seq: number): Promise<HorizonLedger | undefined> {
    return getLedger(this.store, seq);
  }

  async listLedgers(p: Page<bigint>): Promise<HorizonLedger[]> {
    return listLedgers(this.store, p);
  }

  /** The oldest ledger in history (ledgers closed by an older server version have no record). */
  async elderLedger(): Promise<number> {
    return elderLedger(this.store);
  }

  async listAccountIds(filter: { asset?: string; signer?: string; sponsor?: string }, p: Page<string>): Promise<string[]> {
    return listAccountIds(this.store, filter, p);
  }

  async findStrictReceivePaths(q: StrictReceiveQuery): Promise<PathQuote[]> {
    return findStrictReceive(this.store, q);
  }

  async findStrictSendPaths(q: StrictSendQuery): Promise<PathQuote[]> {
    return findStrictSend(this.store, q);
  }
}
