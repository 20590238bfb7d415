/** StellarNetwork over a real Horizon (testnet or pubnet) through the SDK's Horizon.Server. */
import { Horizon } from '@stellar/stellar-sdk';
import { fromStroops } from '../../lib/money.js';
import { NATIVE, toSdkAsset } from '../assets.js';
import { resolveNetwork, type NetworkProfile, type RealNetworkKind } from '../networks.js';
import type { HorizonPaymentRecord, HorizonTransaction } from '../horizon-types.js';
import type {
  AccountView, AsyncSubmitResult, LedgerRead, ListPaymentsOptions, PathQuote, PaymentsPage, StellarNetwork, StrictReceiveQuery, StrictSendQuery,
  NetworkKind, SubmitResult, SupportedAsset, TransactionView,
} from '../network.js';
import { isNotFound, toHorizonError } from './errors.js';
import { HorizonLedgerReader, type RequestCounter } from './ledgers.js';
import { plainRecord } from './records.js';
import { submitEnvelope, submitEnvelopeAsync } from './submit.js';
import { accountView, pathQuote, transactionView, type HorizonPathRecord } from './views.js';

type Assets = { USDC: SupportedAsset; EURC: SupportedAsset; XLM: SupportedAsset };

export interface HorizonNetworkOptions {
  /** the network (config.network); or `kind` and `horizonUrl` for a preset */
  profile?: NetworkProfile;
  kind?: RealNetworkKind;
  /** Defaults to SDF's public Horizon for the network. */
  horizonUrl?: string | null;
}

export class HorizonNetwork implements StellarNetwork {
  readonly kind: NetworkKind;
  readonly passphrase: string;
  readonly horizonUrl: string;
  readonly assets: Assets;
  readonly server: Horizon.Server;
  private readonly ledgers: HorizonLedgerReader;
  private counter: RequestCounter | null = null;

  constructor(options: HorizonNetworkOptions) {
    const profile = options.profile ?? resolveNetwork(options.kind ?? 'testnet', {
      passphrase: null, rpcUrl: null, horizonUrl: options.horizonUrl ?? null, friendbotUrl: null, issuers: null, api: 'horizon',
    });
    if (!profile.horizonUrl) throw new Error(`the ${profile.kind} network has no Horizon URL (FUNDKIT_HORIZON_URL)`);
    this.kind = profile.kind;
    this.passphrase = profile.passphrase;
    this.horizonUrl = profile.horizonUrl.replace(/\/+$/, '');
    this.assets = { USDC: { code: 'USDC', issuer: profile.issuers.USDC }, EURC: { code: 'EURC', issuer: profile.issuers.EURC }, XLM: { code: 'XLM', issuer: NATIVE.issuer } };
    this.server = new Horizon.Server(this.horizonUrl, { allowHttp: this.horizonUrl.startsWith('http:') });
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

  async networkPassphrase(): Promise<string> {
    try {
      return (await this.server.root()).network_passphrase;
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
