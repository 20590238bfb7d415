/**
 * The embedded sandbox ledger: one SQLite-backed Stellar-like ledger that accepts real signed
 * envelopes. Each accepted transaction closes its own ledger (instant finality for tests).
 */
import { EventEmitter } from 'node:events';
import type { Database } from 'better-sqlite3';
import { FeeBumpTransaction, Networks, TransactionBuilder, type Transaction } from '@stellar/stellar-sdk';
import { assetKey, type AssetRef } from '../assets.js';
import type {
  HorizonEffect, HorizonLedger, HorizonOperationRecord, HorizonPaymentRecord, HorizonTransaction,
} from '../horizon-types.js';
import type { PathQuote, ResultCodes, StrictReceiveQuery, StrictSendQuery } from '../network.js';
import { applyTransaction, type Clock } from './apply-tx.js';
import {
  getOperation, getTransaction, latestRecordId, listAccountIds, listEffects, listOperations, listRecords,
  listTransactions, type EffectCursor, type HistoryFilter, type HistoryQuery, type Page,
} from './history.js';
import { elderLedger, getLedger, listLedgers, openLedger } from './ledgers.js';
import { findStrictReceive, findStrictSend } from './paths.js';
import { txCode, txResult } from './results-xdr.js';
import { migrateSandbox } from './schema.js';
import { SandboxStore } from './store.js';
import { checkTransaction } from './validate.js';
import { fundAccount } from './faucet.js';

/** Stellar quickstart's local-network passphrase; wallets and the SDK know it (Networks.STANDALONE). */
export const SANDBOX_PASSPHRASE = Networks.STANDALONE;

export interface SandboxLedgerOptions {
  passphrase?: string;
  /** Injected clock (ms) so tests can exercise time bounds. */
  now?: () => number;
}

export type SubmitOutcome =
  | { status: 'malformed'; envelopeXdr: string }
  | { status: 'rejected'; hash: string; envelopeXdr: string; resultXdr: string; codes: ResultCodes }
  | {
      status: 'applied'; hash: string; ledger: number; successful: boolean; envelopeXdr: string;
      resultXdr: string; codes: ResultCodes; resource: HorizonTransaction;
    };

export class SandboxLedger {
  readonly store: SandboxStore;
  readonly passphrase: string;
  /**
   * Emits 'records' (HorizonPaymentRecord[]) after a ledger with payments commits, and 'ledger'
   * (its sequence) after every ledger close commits: streams re-read from their cursor then.
   */
  readonly events = new EventEmitter();
  private readonly now: () => number;

  constructor(db: Database, options: SandboxLedgerOptions = {}) {
    migrateSandbox(db);
    this.store = new SandboxStore(db);
    this.passphrase = options.passphrase ?? SANDBOX_PASSPHRASE;
    this.now = options.now ?? Date.now;
    this.events.setMaxListeners(0);
  }

  /** The last closed ledger (1 = genesis). */
  get ledgerSequence(): number {
    return Number(this.store.getState('ledger') ?? '1');
  }

  /** Reserves the next ledger number and its close time; call inside a SQLite transaction. */
  closeLedger(): Clock {
    const ledger = this.ledgerSequence + 1;
    this.store.setState('ledger', String(ledger));
    const ms = this.now();
    const clock = { ledger, closeTime: Math.floor(ms / 1000), createdAt: new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z') };
    openLedger(this.store, ledger, clock.closeTime, clock.createdAt);
    return clock;
  }

  submit(envelopeXdr: string): SubmitOutcome {
    let env: Transaction | FeeBumpTransaction;
    try {
      env = TransactionBuilder.fromXDR(envelopeXdr, this.passphrase);
    } catch {
      return { status: 'malformed', envelopeXdr };
    }
    const hash = env.hash().toString('hex');
    const applied = this.store.db.transaction(() => {
      const checked = checkTransaction(this.store, env, Math.floor(this.now() / 1000));
      if ('name' in checked) return checked;
      return applyTransaction(this.store, env, envelopeXdr, checked, this.closeLedger());
    })();
    if ('name' in applied) {
      const resultXdr = txResult(applied.feeCharged, applied.name).toXDR('base64');
      return { status: 'rejected', hash, envelopeXdr, resultXdr, codes: { transaction: txCode(applied.name) } };
    }
    this.events.emit('ledger', applied.ledger);
    if (applied.records.length > 0) this.events.emit('records', applied.records);
    const { records: _, ...rest } = applied;
    return { status: 'applied', envelopeXdr, ...rest };
  }

  /** Friendbot-like faucet: creates the account if needed and credits XLM or an issued asset. */
  fund(address: string, asset: AssetRef, amount: bigint): void {
    const clock = this.store.db.transaction(() => {
      const c = this.closeLedger();
      fundAccount(this.store, c, address, assetKey(asset), amount);
      return c;
    })();
    this.events.emit('ledger', clock.ledger);
  }

  getTransaction(hash: string): HorizonTransaction | undefined {
    return getTransaction(this.store, hash);
  }

  listPayments(q: HistoryQuery): HorizonPaymentRecord[] {
    return listRecords(this.store, q);
  }

  latestPagingToken(): bigint {
    return latestRecordId(this.store);
  }

  /** A cursor after everything already closed, for "cursor=now" on any history list. */
  nowToken(): bigint {
    return (BigInt(this.ledgerSequence + 1) << 32n) - 1n;
  }

  listTransactions(f: HistoryFilter, p: Page<bigint>): HorizonTransaction[] {
    return listTransactions(this.store, f, p);
  }

  listOperations(f: HistoryFilter & { paymentsOnly?: boolean }, p: Page<bigint>): HorizonOperationRecord[] {
    return listOperations(this.store, f, p);
  }

  getOperation(id: bigint): HorizonOperationRecord | undefined {
    return getOperation(this.store, id);
  }

  listEffects(f: HistoryFilter & { operation?: bigint }, p: Page<EffectCursor>): HorizonEffect[] {
    return listEffects(this.store, f, p);
  }

  getLedger(seq: number): HorizonLedger | undefined {
    return getLedger(this.store, seq);
  }

  listLedgers(p: Page<bigint>): HorizonLedger[] {
    return listLedgers(this.store, p);
  }

  /** The oldest ledger in history (ledgers closed by an older server version have no record). */
  get elderLedger(): number {
    return elderLedger(this.store);
  }

  listAccountIds(filter: { asset?: string; signer?: string; sponsor?: string }, p: Page<string>): string[] {
    return listAccountIds(this.store, filter, p);
  }

  findStrictReceivePaths(q: StrictReceiveQuery): PathQuote[] {
    return findStrictReceive(this.store, q);
  }

  findStrictSendPaths(q: StrictSendQuery): PathQuote[] {
    return findStrictSend(this.store, q);
  }
}
