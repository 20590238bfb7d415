/** StellarNetwork over the embedded ledger, for the server's own use (no HTTP hop). */
import { parseAssetKey } from '../assets.js';
import type { HorizonPaymentRecord } from '../horizon-types.js';
import type {
  AccountView, AsyncSubmitResult, LedgerRead, ListPaymentsOptions, PathQuote, PaymentsPage, StellarNetwork, StrictReceiveQuery,
  StrictSendQuery, SubmitResult, TransactionView,
} from '../network.js';
import { SANDBOX_ASSETS, transactionLinks, withLinks, type SandboxLedger } from '@fundkit/sandbox';

export class SandboxNetwork implements StellarNetwork {
  readonly kind = 'sandbox' as const;
  readonly assets = SANDBOX_ASSETS;
  readonly passphrase: string;

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

  async findStrictReceivePaths(query: StrictReceiveQuery): Promise<PathQuote[]> {
    return this.ledger.findStrictReceivePaths(query);
  }

  async findStrictSendPaths(query: StrictSendQuery): Promise<PathQuote[]> {
    return this.ledger.findStrictSendPaths(query);
  }
}
