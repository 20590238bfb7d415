/** StellarNetwork over a real Horizon (testnet or pubnet) through the SDK's Horizon.Server. */
import { Horizon, Networks } from '@stellar/stellar-sdk';
import { fromStroops } from '../../lib/money.js';
import { NATIVE, PUBNET_EURC_ISSUER, PUBNET_USDC_ISSUER, TESTNET_EURC_ISSUER, TESTNET_USDC_ISSUER, toSdkAsset } from '../assets.js';
import type { HorizonPaymentRecord, HorizonTransaction } from '../horizon-types.js';
import type {
  AccountView, AsyncSubmitResult, LedgerRead, ListPaymentsOptions, PathQuote, PaymentsPage, StellarNetwork, StrictReceiveQuery, StrictSendQuery,
  SubmitResult, SupportedAsset, TransactionView,
} from '../network.js';
import { isNotFound, toHorizonError } from './errors.js';
import { HorizonLedgerReader, type RequestCounter } from './ledgers.js';
import { plainRecord } from './records.js';
import { submitEnvelope, submitEnvelopeAsync } from './submit.js';
import { accountView, pathQuote, transactionView, type HorizonPathRecord } from './views.js';
import { DEFAULT_TIMING, PaymentWatcher, type RecordHandler, type StreamHandlers, type WatcherHooks, type WatchSource, type WatchTiming } from './watcher.js';

type Assets = { USDC: SupportedAsset; EURC: SupportedAsset; XLM: SupportedAsset };

const PRESETS = {
  testnet: { passphrase: Networks.TESTNET, url: 'https://horizon-testnet.stellar.org', usdc: TESTNET_USDC_ISSUER, eurc: TESTNET_EURC_ISSUER },
  pubnet: { passphrase: Networks.PUBLIC, url: 'https://horizon.stellar.org', usdc: PUBNET_USDC_ISSUER, eurc: PUBNET_EURC_ISSUER },
} as const;

export interface HorizonNetworkOptions {
  kind: 'testnet' | 'pubnet';
  /** Defaults to SDF's public Horizon for the network. */
  horizonUrl?: string | null;
  /** Stream silence, backoff and page size of watchPayments (tests shrink them). */
  watch?: Partial<WatchTiming>;
  /** Told about every watcher restart (logging). */
  onWatchRestart?: (account: string, reason: string, delayMs: number) => void;
}

export class HorizonNetwork implements StellarNetwork, WatchSource {
  readonly kind: 'testnet' | 'pubnet';
  readonly passphrase: string;
  readonly horizonUrl: string;
  readonly assets: Assets;
  readonly server: Horizon.Server;
  private readonly timing: WatchTiming;
  private readonly ledgers: HorizonLedgerReader;
  private counter: RequestCounter | null = null;

  constructor(private readonly options: HorizonNetworkOptions) {
    const preset = PRESETS[options.kind];
    this.kind = options.kind;
    this.passphrase = preset.passphrase;
    this.horizonUrl = (options.horizonUrl || preset.url).replace(/\/+$/, '');
    this.assets = { USDC: { code: 'USDC', issuer: preset.usdc }, EURC: { code: 'EURC', issuer: preset.eurc }, XLM: { code: 'XLM', issuer: NATIVE.issuer } };
    this.server = new Horizon.Server(this.horizonUrl, { allowHttp: this.horizonUrl.startsWith('http:') });
    this.timing = { ...DEFAULT_TIMING, ...options.watch };
    this.ledgers = new HorizonLedgerReader(this.horizonUrl, () => this.counter);
  }

  /** The ledger follower's reads make several HTTP requests each: they count themselves (ops/network-meter.ts). */
  meterRequests(counter: RequestCounter): void {
    this.counter = counter;
  }

  readLedgers(from: number, maxLedgers: number): Promise<LedgerRead> {
    return this.ledgers.read(from, maxLedgers);
  }

  async loadAccount(id: string): Promise<AccountView | null> {
    try {
      return accountView(await this.server.loadAccount(id));
    } catch (error) {
      if (isNotFound(error)) return null;
      throw toHorizonError(error, `GET /accounts/${id}`);
    }
  }

  submitTransaction(envelopeXdr: string): Promise<SubmitResult> {
    const ledgerOf = (hash: string) => this.getTransaction(hash).then((t) => t?.ledger ?? null, () => null);
    return submitEnvelope({ server: this.server, passphrase: this.passphrase, ledgerOf }, envelopeXdr);
  }

  submitTransactionAsync(envelopeXdr: string): Promise<AsyncSubmitResult> {
    return submitEnvelopeAsync({ server: this.server, passphrase: this.passphrase, ledgerOf: async () => null }, envelopeXdr);
  }

  async latestLedger(): Promise<number> {
    try {
      return Number((await this.server.root()).history_latest_ledger);
    } catch (error) {
      throw toHorizonError(error, 'GET /');
    }
  }

  async getTransaction(hash: string): Promise<TransactionView | null> {
    try {
      const record = await this.server.transactions().transaction(hash).call();
      return transactionView(plainRecord(record) as unknown as HorizonTransaction);
    } catch (error) {
      if (isNotFound(error)) return null;
      throw toHorizonError(error, `GET /transactions/${hash}`);
    }
  }

  private paymentsOf(account: string) {
    return this.server.payments().forAccount(account).join('transactions');
  }

  async listPayments(account: string, o: ListPaymentsOptions = {}): Promise<PaymentsPage> {
    let call = this.paymentsOf(account).limit(o.limit ?? 10).order(o.order ?? 'asc');
    if (o.cursor) call = call.cursor(o.cursor);
    if (o.includeFailed) call = call.includeFailed(true);
    try {
      const page = await call.call();
      const records = page.records.map(plainRecord);
      return { records, nextCursor: records.at(-1)?.paging_token ?? o.cursor ?? null };
    } catch (error) {
      throw toHorizonError(error, `GET /accounts/${account}/payments`);
    }
  }

  /** WatchSource: one ascending page after `cursor`. */
  async page(account: string, cursor: string, limit: number): Promise<HorizonPaymentRecord[]> {
    return (await this.listPayments(account, { ...(cursor ? { cursor } : {}), limit, order: 'asc' })).records;
  }

  /** WatchSource: the SDK's SSE stream; its own reconnect timer is kept longer than ours. */
  stream(account: string, cursor: string, handlers: StreamHandlers): () => void {
    const call = cursor ? this.paymentsOf(account).cursor(cursor) : this.paymentsOf(account);
    return call.stream({
      onmessage: (record) => handlers.onmessage(plainRecord(record)),
      onerror: (event) => handlers.onerror(event),
      reconnectTimeout: this.timing.silenceMs * 4,
    });
  }

  /**
   * Delivers every payment after `cursor` in order, exactly once per watcher, surviving stream
   * drops and silence. `onRecord` may be async; a throw or `false` means "not processed" and the
   * record comes again. `hooks.saveCursor` runs after each processed record (the pipeline's
   * observer persists the cursor inside onRecord instead).
   */
  watchPayments(account: string, cursor: string, onRecord: RecordHandler, hooks: WatcherHooks = {}): () => void {
    const restart = this.options.onWatchRestart;
    // "now" would skip whatever arrived while nobody watched: start from the first payment instead
    const watcher = new PaymentWatcher(account, cursor === 'now' ? '' : cursor, onRecord, this, this.timing, {
      ...hooks,
      onRestart: (reason, delay) => {
        hooks.onRestart?.(reason, delay);
        restart?.(account, reason, delay);
      },
    });
    watcher.start();
    return () => watcher.stop();
  }

  async findStrictReceivePaths(q: StrictReceiveQuery): Promise<PathQuote[]> {
    const call = this.server.strictReceivePaths(q.sourceAssets.map(toSdkAsset), toSdkAsset(q.destinationAsset), fromStroops(q.destinationAmount));
    return this.paths(call, 'strict-receive');
  }

  async findStrictSendPaths(q: StrictSendQuery): Promise<PathQuote[]> {
    const call = this.server.strictSendPaths(toSdkAsset(q.sourceAsset), fromStroops(q.sourceAmount), q.destinationAssets.map(toSdkAsset));
    return this.paths(call, 'strict-send');
  }

  private async paths(call: { call(): Promise<{ records: unknown[] }> }, what: string): Promise<PathQuote[]> {
    try {
      const page = await call.call();
      return page.records.map((r) => pathQuote(plainRecord(r) as unknown as HorizonPathRecord));
    } catch (error) {
      throw toHorizonError(error, `GET /paths/${what}`);
    }
  }
}

export function createHorizonNetwork(options: HorizonNetworkOptions): HorizonNetwork {
  return new HorizonNetwork(options);
}
