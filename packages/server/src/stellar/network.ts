/**
 * The one contract between the payment pipeline and a Stellar network. The sandbox ledger and
 * the (later) Horizon adapter both implement it; records are Horizon-shaped so one observer
 * consumes either.
 */
import type { Transaction } from '@stellar/stellar-sdk';
import type { AssetRef } from './assets.js';
import type { HorizonPaymentRecord } from './horizon-types.js';

export type NetworkKind = 'sandbox' | 'testnet' | 'pubnet' | 'custom';

export interface SupportedAsset extends AssetRef {
  code: 'USDC' | 'EURC' | 'XLM';
}

export interface BalanceView {
  asset: AssetRef;
  /** Stroops. */
  balance: bigint;
  /** Stroops; null for native. */
  limit: bigint | null;
}

export interface AccountView {
  id: string;
  sequence: bigint;
  subentryCount: number;
  numSponsoring: number;
  numSponsored: number;
  balances: BalanceView[];
}

/** Horizon result codes, e.g. { transaction: 'tx_failed', operations: ['op_underfunded'] }. */
export interface ResultCodes {
  transaction: string;
  inner_transaction?: string;
  operations?: string[];
}

export interface SubmitResult {
  hash: string;
  /** Null when the transaction never reached a ledger (bad seq, bad auth, malformed...). */
  ledger: number | null;
  successful: boolean;
  resultCodes?: ResultCodes;
  resultXdr?: string;
}

/** Horizon's POST /transactions_async answer: admitted (PENDING) or not; never waits for a ledger. */
export interface AsyncSubmitResult {
  status: 'PENDING' | 'DUPLICATE' | 'TRY_AGAIN_LATER' | 'ERROR';
  hash: string;
  /** TransactionResult XDR, on ERROR. */
  errorResultXdr?: string;
  /** Decoded from errorResultXdr, on ERROR. */
  resultCodes?: ResultCodes;
}

export interface TransactionView {
  hash: string;
  ledger: number;
  successful: boolean;
  createdAt: string;
  sourceAccount: string;
  feeAccount: string;
  feeCharged: bigint;
  memoType: 'none' | 'text' | 'id' | 'hash' | 'return';
  memo: string | null;
  envelopeXdr: string;
  resultXdr: string;
}

export interface ListPaymentsOptions {
  cursor?: string;
  limit?: number;
  order?: 'asc' | 'desc';
  includeFailed?: boolean;
}

export interface PaymentsPage {
  /** Records with the joined `transaction` (memo, memo_type) embedded. */
  records: HorizonPaymentRecord[];
  /** Paging token of the last record, or the given cursor when the page is empty. */
  nextCursor: string | null;
}

export interface PathQuote {
  sourceAsset: AssetRef;
  sourceAmount: bigint;
  destinationAsset: AssetRef;
  destinationAmount: bigint;
  /** Intermediate assets, as in a path payment operation. */
  path: AssetRef[];
}

export interface StrictReceiveQuery {
  sourceAssets: AssetRef[];
  destinationAsset: AssetRef;
  destinationAmount: bigint;
}

export interface StrictSendQuery {
  sourceAsset: AssetRef;
  sourceAmount: bigint;
  destinationAssets: AssetRef[];
}

/** What one read of closed ledgers gave (StellarNetwork.readLedgers). */
export interface LedgerRead {
  /**
   * The last ledger whose payment records are ALL in `records`: from − 1 when the ledger asked
   * for is not closed yet. A closed ledger is final: nothing read here needs a second request.
   */
  through: number;
  /**
   * Successful payment-type operations (payment, both path payments, create_account,
   * account_merge) and contract invocations that moved a supported asset (invoke_host_function
   * with its SAC balance changes) of ledgers from..through, in order, with `transaction` joined.
   */
  records: HorizonPaymentRecord[];
  /** The network's latest closed ledger, as the source saw it. */
  latest: number;
  /** When `latest` closed (ms since the epoch), if the source says: the next close is due about one ledger later. */
  latestClosedAtMs: number | null;
}

/** The ledger asked for is older than the source keeps (its retention): reading on would skip payments. */
export class LedgerGapError extends Error {
  constructor(readonly wanted: number, readonly oldest: number, source: string) {
    super(`${source} keeps ledgers from ${oldest} on; ledger ${wanted} is gone. Payments in ledgers ${wanted}–${oldest - 1} cannot be observed from it: `
      + 'point the server at a source with full history for that range (a Horizon or an archive-backed RPC), or accept the gap by setting the cursor by hand');
    this.name = 'LedgerGapError';
  }
}

/** The source said to slow down (HTTP 429), and for how long if it said (Retry-After). */
export class RateLimitedError extends Error {
  readonly status = 429;
  constructor(readonly retryAfterMs: number | null, what: string) {
    super(`${what}: rate limited (429)${retryAfterMs !== null ? `, retry after ${Math.ceil(retryAfterMs / 1000)} s` : ''}`);
    this.name = 'RateLimitedError';
  }
}

/** The network simulated the invocation and it would fail (no balance, no such contract…): sending it is pointless. */
export class SimulationFailedError extends Error {
  constructor(readonly reason: string) {
    super(`the transaction's simulation failed: ${reason}`);
    this.name = 'SimulationFailedError';
  }
}

export interface StellarNetwork {
  readonly kind: NetworkKind;
  readonly passphrase: string;
  /** Horizon base URL that clients (wallets, the SDK) should use for this network. */
  readonly horizonUrl: string;
  readonly assets: { USDC: SupportedAsset; EURC: SupportedAsset; XLM: SupportedAsset };
  loadAccount(id: string): Promise<AccountView | null>;
  /** The sequence of the latest closed ledger (Horizon's root `history_latest_ledger`). */
  latestLedger(): Promise<number>;
  /**
   * The payment records of closed ledgers from `from` on, at most `maxLedgers` of them, read
   * ledger by ledger for every account at once (the ledger follower). The number of requests
   * depends on the network's traffic, never on how many accounts Fundkit watches. Throws
   * LedgerGapError when `from` is older than the source keeps, RateLimitedError on a 429.
   */
  readLedgers(from: number, maxLedgers: number): Promise<LedgerRead>;
  /** Never throws for a rejected transaction: the outcome is in `successful`/`resultCodes`. */
  submitTransaction(envelopeXdr: string): Promise<SubmitResult>;
  /**
   * Submits without waiting for a ledger (Horizon's POST /transactions_async); confirm by
   * looking the hash up with getTransaction. Never throws for a refused transaction.
   */
  submitTransactionAsync(envelopeXdr: string): Promise<AsyncSubmitResult>;
  getTransaction(hash: string): Promise<TransactionView | null>;
  /** The network's passphrase as the network says it (a start-up check against the configured one). */
  networkPassphrase(): Promise<string>;
  findStrictReceivePaths(query: StrictReceiveQuery): Promise<PathQuote[]>;
  findStrictSendPaths(query: StrictSendQuery): Promise<PathQuote[]>;
  /**
   * A contract invocation simulated and assembled (its footprint, resources and resource fee, its
   * source-account authorizations), ready to sign: Stellar RPC's simulateTransaction. Absent on
   * a network without it (Horizon only, the sandbox today): nothing can be paid to a contract there.
   */
  prepareTransaction?(tx: Transaction): Promise<Transaction>;
}
