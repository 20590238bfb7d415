/**
 * StellarNetwork over Stellar RPC (SDF's recommended API) through the SDK's `rpc.Server`: the
 * follower's ledgers (getTransactions), submission (sendTransaction, then getTransaction),
 * account and trustline reads (getLedgerEntries), the tip (getLatestLedger). The raw (`_`)
 * variants keep the XDR as text, decoded in xdr-read.ts, so a meta version this SDK cannot
 * parse yet never stops observation. RPC has no path finding: conversions need a Horizon too
 * (FUNDKIT_HORIZON_URL); without one there are no conversion options.
 */
import { rpc, TransactionBuilder, type Transaction } from '@stellar/stellar-sdk';
import { NATIVE, toSdkAsset } from '../assets.js';
import { createHorizonNetwork, type HorizonNetwork } from '../horizon/index.js';
import type { RequestCounter } from '../horizon/ledgers.js';
import type { NetworkProfile } from '../networks.js';
import {
  LedgerGapError, RateLimitedError, SimulationFailedError, type AccountView, type NetworkKind, type AsyncSubmitResult, type BalanceView, type LedgerRead, type PathQuote,
  type StellarNetwork, type StrictReceiveQuery, type StrictSendQuery, type SubmitResult, type SupportedAsset, type TransactionView,
} from '../network.js';
import { resultCodesOf } from '../result-codes.js';
import { paymentRecords, sacIndex, transactionOf, type RpcTransaction, type SacIndex } from './records.js';
import { accountKey, readAccount, readTrustline, trustlineKey } from './xdr-read.js';

/** getTransactions' page: stellar-rpc's default maximum (an RPC configured lower says so, and is asked for less). */
const PAGE = 200;
/** submitTransaction polls getTransaction this often, this long (a ledger is ~5 s) */
const POLL_MS = 1000;
const POLL_FOR_MS = 60_000;

export class RpcRequestError extends Error {
  constructor(message: string, readonly status: number | null, readonly code: number | null) {
    super(message);
    this.name = 'RpcRequestError';
  }

  get retryable(): boolean {
    return this.status === null || this.status === 429 || this.status >= 500;
  }
}

interface Failure { status: number | null; retryAfter: string | null; code: number | null; message: string }

/** rpc.Server throws an HTTP client's error (a response with status and headers) or a JSON-RPC error ({code, message}). */
function failureOf(error: unknown): Failure {
  const e = error as { response?: { status?: number; headers?: unknown }; code?: unknown; message?: unknown } | null;
  const headers = e?.response?.headers as { get?: (n: string) => string | null } & Record<string, string> | undefined;
  const retryAfter = headers ? (typeof headers.get === 'function' ? headers.get('retry-after') : headers['retry-after'] ?? null) : null;
  return {
    status: typeof e?.response?.status === 'number' ? e.response.status : null, retryAfter,
    code: typeof e?.code === 'number' ? e.code : null, message: typeof e?.message === 'string' ? e.message : String(error),
  };
}

export interface RpcNetworkOptions {
  /** ms before getTransaction poll number `attempt` (0-based); a sandbox that closes at once is asked sooner */
  pollDelay?: (attempt: number) => number;
}

export class RpcNetwork implements StellarNetwork {
  readonly kind: NetworkKind;
  readonly passphrase: string;
  readonly horizonUrl: string;
  readonly rpcUrl: string;
  readonly assets: { USDC: SupportedAsset; EURC: SupportedAsset; XLM: SupportedAsset };
  readonly server: rpc.Server;
  /** path finding only (RPC has none) */
  private readonly horizon: HorizonNetwork | null;
  private counter: RequestCounter | null = null;
  private pageLimit = PAGE;
  /** the supported assets' Stellar Asset Contracts: the only contracts whose `transfer` events are money */
  private readonly sacs: SacIndex;

  /** the wait before each getTransaction poll of a submission (a real network: once a second) */
  private readonly pollDelay: (attempt: number) => number;

  constructor(profile: NetworkProfile, options: RpcNetworkOptions = {}) {
    this.pollDelay = options.pollDelay ?? (() => POLL_MS);
    if (!profile.rpcUrl) throw new Error(`the ${profile.kind} network has no RPC URL (FUNDKIT_RPC_URL)`);
    this.kind = profile.kind;
    this.passphrase = profile.passphrase;
    this.rpcUrl = profile.rpcUrl;
    this.horizonUrl = profile.horizonUrl ?? '';
    this.assets = { USDC: { code: 'USDC', issuer: profile.issuers.USDC }, EURC: { code: 'EURC', issuer: profile.issuers.EURC }, XLM: { code: 'XLM', issuer: NATIVE.issuer } };
    this.sacs = sacIndex(Object.values(this.assets), this.passphrase);
    this.server = new rpc.Server(profile.rpcUrl, { allowHttp: profile.rpcUrl.startsWith('http:') });
    this.horizon = profile.horizonUrl ? createHorizonNetwork({ profile: { ...profile, api: 'horizon' } }) : null;
  }

  /** Every request counts itself (ops/network-meter.ts): one method call is one request here, except submitTransaction's polls. */
  readonly countsAllRequests = true;

  meterRequests(counter: RequestCounter): void {
    this.counter = counter;
    this.horizon?.meterRequests(counter);
  }

  /** One JSON-RPC request: counted, and its failures made one error type (429 → RateLimitedError). */
  private async call<T>(method: string, run: () => Promise<T>): Promise<T> {
    try {
      const result = await run();
      this.counter?.(method, null);
      return result;
    } catch (error) {
      const f = failureOf(error);
      this.counter?.(method, f.status === 429 ? 'rate_limited' : 'error');
      if (f.status === 429) {
        const seconds = f.retryAfter === null ? NaN : Number(f.retryAfter);
        throw new RateLimitedError(Number.isFinite(seconds) ? seconds * 1000 : null, `Stellar RPC ${method}`);
      }
      throw new RpcRequestError(`Stellar RPC ${method} failed${f.status ? ` (${f.status})` : ''}${f.code !== null ? ` [${f.code}]` : ''}: ${f.message}`, f.status, f.code);
    }
  }

  async networkPassphrase(): Promise<string> {
    return (await this.call('getNetwork', () => this.server.getNetwork())).passphrase;
  }

  async latestLedger(): Promise<number> {
    return (await this.call('getLatestLedger', () => this.server.getLatestLedger())).sequence;
  }

  async loadAccount(id: string): Promise<AccountView | null> {
    const lines = [this.assets.USDC, this.assets.EURC].map((a) => trustlineKey(id, toSdkAsset(a)));
    const answer = await this.call('getLedgerEntries', () => this.server._getLedgerEntries(accountKey(id), ...lines));
    const entries = answer.entries ?? [];
    const accountXdr = accountKey(id).toXDR('base64');
    const account = entries.find((e) => e.key === accountXdr);
    if (!account) return null;
    const a = readAccount(account.xdr);
    const balances = entries.filter((e) => e !== account).map((e) => readTrustline(e.xdr)).filter((b): b is BalanceView => b !== null);
    return {
      id, sequence: a.sequence, subentryCount: a.subentryCount, numSponsoring: a.numSponsoring, numSponsored: a.numSponsored,
      balances: [...balances, { asset: NATIVE, balance: a.balance, limit: null }],
    };
  }

  /**
   * getTransactions from `from`, paged by its cursor until a page comes back short (every ledger
   * up to the answer's latestLedger is then complete) or `maxLedgers` ledgers are covered.
   */
  async readLedgers(from: number, maxLedgers: number): Promise<LedgerRead> {
    const records = [];
    let request: rpc.Api.GetTransactionsRequest = { startLedger: from };
    for (;;) {
      const page = await this.transactionsPage(request, from);
      if (!page) return { through: from - 1, records: [], latest: from - 1, latestClosedAtMs: null };
      const last = from + maxLedgers - 1;
      const closedAt = page.latestLedgerCloseTimestamp ? Number(page.latestLedgerCloseTimestamp) * 1000 : null;
      const transactions = (page.transactions ?? []) as RpcTransaction[];
      for (const t of transactions) {
        // a full page may end inside a ledger: that ledger is read again from its start next time
        if (t.ledger > last) return { through: last, records, latest: page.latestLedger, latestClosedAtMs: closedAt };
        records.push(...paymentRecords(t, this.passphrase, this.sacs));
      }
      // stellar-rpc fills a page up to the limit asked (it refuses a limit above its maximum): a short page reached its tip
      if (transactions.length < this.pageLimit) return { through: Math.min(page.latestLedger, last), records, latest: page.latestLedger, latestClosedAtMs: closedAt };
      request = { pagination: { cursor: page.cursor } };
    }
  }

  /** One page; null when `from` is past the tip. A `from` before the RPC's retention window is a LedgerGapError. */
  private async transactionsPage(request: rpc.Api.GetTransactionsRequest, from: number): Promise<rpc.Api.RawGetTransactionsResponse | null> {
    try {
      const limit = this.pageLimit;
      const paged: rpc.Api.GetTransactionsRequest = request.startLedger !== undefined
        ? { startLedger: request.startLedger, pagination: { limit } } : { pagination: { cursor: request.pagination!.cursor!, limit } };
      return await this.call('getTransactions', () => this.server._getTransactions(paged));
    } catch (error) {
      // "limit must not exceed 100": an RPC configured with a smaller page, asked again within it
      const max = error instanceof RpcRequestError ? /limit must not exceed (\d+)/.exec(error.message)?.[1] : undefined;
      if (max && Number(max) < this.pageLimit) {
        this.pageLimit = Number(max);
        return this.transactionsPage(request, from);
      }
      if (!(error instanceof RpcRequestError) || error.code === null || request.startLedger === undefined) throw error;
      // an out-of-range startLedger is a JSON-RPC error naming the range (stellar-rpc's words);
      // a server that words it otherwise is asked with getHealth
      const named = /oldest ledger: (\d+) and the latest ledger: (\d+)/.exec(error.message);
      const range = named ? { oldestLedger: Number(named[1]), latestLedger: Number(named[2]) } : await this.call('getHealth', () => this.server.getHealth());
      if (from > range.latestLedger) return null;
      if (from < range.oldestLedger) throw new LedgerGapError(from, range.oldestLedger, `Stellar RPC at ${this.rpcUrl} (its retention window)`);
      throw error;
    }
  }

  async submitTransactionAsync(envelopeXdr: string): Promise<AsyncSubmitResult> {
    const tx = TransactionBuilder.fromXDR(envelopeXdr, this.passphrase);
    const sent = await this.call('sendTransaction', () => this.server._sendTransaction(tx));
    if (sent.status === 'ERROR' && sent.errorResultXdr) {
      return { status: 'ERROR', hash: sent.hash, errorResultXdr: sent.errorResultXdr, resultCodes: resultCodesOf(sent.errorResultXdr) };
    }
    return { status: sent.status, hash: sent.hash };
  }

  /** Submits, then waits for the ledger that takes it (getTransaction once a second). */
  async submitTransaction(envelopeXdr: string): Promise<SubmitResult> {
    const sent = await this.submitTransactionAsync(envelopeXdr);
    if (sent.status === 'ERROR' || sent.status === 'TRY_AGAIN_LATER') {
      return { hash: sent.hash, ledger: null, successful: false, resultCodes: sent.resultCodes ?? { transaction: 'try_again_later' }, ...(sent.errorResultXdr ? { resultXdr: sent.errorResultXdr } : {}) };
    }
    const until = Date.now() + POLL_FOR_MS;
    for (let attempt = 0; ; attempt++) {
      const view = await this.getTransaction(sent.hash);
      if (view) {
        return { hash: view.hash, ledger: view.ledger, successful: view.successful, resultXdr: view.resultXdr, ...(view.successful ? {} : { resultCodes: resultCodesOf(view.resultXdr) }) };
      }
      if (Date.now() > until) throw new RpcRequestError(`transaction ${sent.hash} was not in a ledger after ${POLL_FOR_MS / 1000} s`, null, null);
      await new Promise((resolve) => setTimeout(resolve, this.pollDelay(attempt)));
    }
  }

  async getTransaction(hash: string): Promise<TransactionView | null> {
    const t = await this.call('getTransaction', () => this.server._getTransaction(hash));
    if (t.status === 'NOT_FOUND') return null;
    const joined = transactionOf({ ...t, txHash: hash } as RpcTransaction, this.passphrase);
    return {
      hash, ledger: joined.ledger, successful: joined.successful, createdAt: joined.created_at, sourceAccount: joined.source_account,
      feeAccount: joined.fee_account, feeCharged: BigInt(joined.fee_charged), memoType: joined.memo_type, memo: joined.memo ?? null,
      envelopeXdr: joined.envelope_xdr, resultXdr: joined.result_xdr,
    };
  }

  /**
   * simulateTransaction (one request), then the SDK assembles its footprint, resources, resource
   * fee and source-account auth into the transaction. An invocation that would fail is a
   * SimulationFailedError (final), a failed request an RpcRequestError (retried).
   */
  async prepareTransaction(tx: Transaction): Promise<Transaction> {
    const simulation = await this.call('simulateTransaction', () => this.server.simulateTransaction(tx));
    if (rpc.Api.isSimulationError(simulation)) throw new SimulationFailedError(simulation.error.split('\n')[0] ?? simulation.error);
    return rpc.assembleTransaction(tx, simulation).build();
  }

  async findStrictReceivePaths(query: StrictReceiveQuery): Promise<PathQuote[]> {
    return this.horizon ? this.horizon.findStrictReceivePaths(query) : [];
  }

  async findStrictSendPaths(query: StrictSendQuery): Promise<PathQuote[]> {
    return this.horizon ? this.horizon.findStrictSendPaths(query) : [];
  }
}

export function createRpcNetwork(profile: NetworkProfile, options: RpcNetworkOptions = {}): RpcNetwork {
  return new RpcNetwork(profile, options);
}
