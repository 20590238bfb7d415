/** StellarNetwork over the embedded ledger, for the server's own use (no HTTP hop). */
import { oneAtATime } from '../../lib/one-at-a-time.js';
import { parseAssetKey } from '../assets.js';
import type { HorizonPaymentRecord } from '../horizon-types.js';
import type {
  AccountView, AsyncSubmitResult, LedgerRead, ListPaymentsOptions, PathQuote, PaymentsPage, StellarNetwork, StrictReceiveQuery,
  StrictSendQuery, SubmitResult, TransactionView,
} from '../network.js';
import type { SandboxLedger } from './ledger.js';
import { participants, withLinks } from './records.js';
import { SANDBOX_ASSETS } from './sandbox-assets.js';
import { transactionLinks } from './tx-resource.js';

export class SandboxNetwork implements StellarNetwork {
  readonly kind = 'sandbox' as const;
  readonly assets = SANDBOX_ASSETS;
  readonly passphrase: string;
  /** watched account → the flush of each of its watchers */
  private readonly watchers = new Map<string, Set<() => void>>();
  private listening = false;

  /** `horizonUrl` is where the router is mounted, e.g. http://localhost:4000/sandbox/horizon. */
  constructor(readonly ledger: SandboxLedger, readonly horizonUrl: string) {
    this.passphrase = ledger.passphrase;
  }

  latestLedger(): Promise<number> {
    return this.ledger.ledgerSequence();
  }

  async networkPassphrase(): Promise<string> {
    return this.passphrase;
  }

  /** The sandbox keeps its whole history (no retention gap), and its close times are its own clock's. */
  async readLedgers(from: number, maxLedgers: number): Promise<LedgerRead> {
    const latest = await this.ledger.ledgerSequence();
    const through = Math.min(latest, from + maxLedgers - 1);
    const records = through < from ? [] : await this.ledger.ledgerPayments(from, through);
    return { through: Math.max(through, from - 1), records, latest, latestClosedAtMs: null };
  }

  async loadAccount(id: string): Promise<AccountView | null> {
    const { store } = this.ledger;
    const a = await store.getAccount(id);
    if (!a) return null;
    const lines = (await store.listTrustlines(id)).map((t) => ({ asset: parseAssetKey(t.asset), balance: t.balance, limit: t.limit }));
    return {
      id, sequence: a.seq, subentryCount: a.subentries, numSponsoring: a.numSponsoring, numSponsored: a.numSponsored,
      balances: [...lines, { asset: SANDBOX_ASSETS.XLM, balance: a.balance, limit: null }],
    };
  }

  async submitTransaction(envelopeXdr: string): Promise<SubmitResult> {
    const out = await this.ledger.submitAndWait(envelopeXdr);
    if (out.status === 'malformed') {
      return { hash: '', ledger: null, successful: false, resultCodes: { transaction: 'tx_malformed' } };
    }
    if (out.status === 'try_again_later') {
      return { hash: out.hash, ledger: null, successful: false, resultCodes: { transaction: 'try_again_later' } };
    }
    const ledger = out.status === 'applied' ? out.ledger : null;
    const successful = out.status === 'applied' && out.successful;
    return { hash: out.hash, ledger, successful, resultXdr: out.resultXdr, ...(successful ? {} : { resultCodes: out.codes }) };
  }

  async submitTransactionAsync(envelopeXdr: string): Promise<AsyncSubmitResult> {
    const out = await this.ledger.submitAsync(envelopeXdr);
    return { status: out.status, hash: out.hash, ...(out.errorResultXdr ? { errorResultXdr: out.errorResultXdr } : {}),
      ...(out.codes ? { resultCodes: out.codes } : {}) };
  }

  async getTransaction(hash: string): Promise<TransactionView | null> {
    const t = await this.ledger.getTransaction(hash);
    if (!t) return null;
    return {
      hash: t.hash, ledger: t.ledger, successful: t.successful, createdAt: t.created_at, sourceAccount: t.source_account,
      feeAccount: t.fee_account, feeCharged: BigInt(t.fee_charged), memoType: t.memo_type, memo: t.memo ?? null,
      envelopeXdr: t.envelope_xdr, resultXdr: t.result_xdr,
    };
  }

  private async joined(r: HorizonPaymentRecord): Promise<HorizonPaymentRecord> {
    const tx = await this.ledger.getTransaction(r.transaction_hash);
    const linked = withLinks(r, this.horizonUrl);
    return tx ? { ...linked, transaction: transactionLinks(tx, this.horizonUrl) } : linked;
  }

  async listPayments(account: string, o: ListPaymentsOptions = {}): Promise<PaymentsPage> {
    const found = (await this.ledger.listPayments({
      account, limit: o.limit ?? 10, order: o.order ?? 'asc', includeFailed: o.includeFailed ?? false,
      ...(o.cursor ? { cursor: BigInt(o.cursor === 'now' ? await this.ledger.latestPagingToken() : o.cursor) } : {}),
    }));
    const records = [];
    for (const r of found) records.push(await this.joined(r));
    return { records, nextCursor: records.at(-1)?.paging_token ?? o.cursor ?? null };
  }

  watchPayments(account: string, cursor: string, onRecord: (record: HorizonPaymentRecord) => unknown): () => void {
    const start = cursor === 'now' ? this.ledger.latestPagingToken().then(String) : Promise.resolve(cursor);
    let last: string | null = null;
    const drain = async () => {
      last ??= await start;
      for (;;) {
        const batch = await this.ledger.listPayments({ account, limit: 200, order: 'asc', includeFailed: false,
          ...(last ? { cursor: BigInt(last) } : {}) });
        for (const r of batch) {
          last = r.paging_token;
          // in order, each handled before the next (as the Horizon watcher does)
          await onRecord(await this.joined(r));
        }
        if (batch.length < 200) return;
      }
    };
    const flush = oneAtATime(() => drain().catch(() => undefined));
    const flushes = this.watchers.get(account) ?? new Set<() => void>();
    this.watchers.set(account, flushes);
    flushes.add(flush);
    if (!this.listening) {
      this.listening = true;
      this.ledger.events.on('records', (records: HorizonPaymentRecord[]) => this.dispatch(records));
    }
    // Backlog is delivered asynchronously so the caller can finish wiring up first.
    queueMicrotask(flush);
    return () => {
      flushes.delete(flush);
      if (flushes.size === 0 && this.watchers.get(account) === flushes) this.watchers.delete(account);
    };
  }

  /**
   * One listener for every watched account: the records' participants are looked up in the
   * watchers by account, instead of each of thousands of watchers (one per deposit account)
   * scanning every record of every close (profiled on the instant sandbox under creates: ~4% of the
   * server's CPU, and growing with every deposit account watched).
   */
  private dispatch(records: HorizonPaymentRecord[]): void {
    const touched = new Set<string>();
    for (const r of records) for (const account of participants(r)) touched.add(account);
    for (const account of touched) this.watchers.get(account)?.forEach((flush) => flush());
  }

  async findStrictReceivePaths(query: StrictReceiveQuery): Promise<PathQuote[]> {
    return this.ledger.findStrictReceivePaths(query);
  }

  async findStrictSendPaths(query: StrictSendQuery): Promise<PathQuote[]> {
    return this.ledger.findStrictSendPaths(query);
  }
}
