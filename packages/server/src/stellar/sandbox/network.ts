/** StellarNetwork over the embedded ledger, for the server's own use (no HTTP hop). */
import { parseAssetKey } from '../assets.js';
import type { HorizonPaymentRecord } from '../horizon-types.js';
import type {
  AccountView, AsyncSubmitResult, ListPaymentsOptions, PathQuote, PaymentsPage, StellarNetwork, StrictReceiveQuery,
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

  /** `horizonUrl` is where the router is mounted, e.g. http://localhost:4000/sandbox/horizon. */
  constructor(readonly ledger: SandboxLedger, readonly horizonUrl: string) {
    this.passphrase = ledger.passphrase;
  }

  async loadAccount(id: string): Promise<AccountView | null> {
    const { store } = this.ledger;
    const a = store.getAccount(id);
    if (!a) return null;
    const lines = store.listTrustlines(id).map((t) => ({ asset: parseAssetKey(t.asset), balance: t.balance, limit: t.limit }));
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
    const out = this.ledger.submitAsync(envelopeXdr);
    return { status: out.status, hash: out.hash, ...(out.errorResultXdr ? { errorResultXdr: out.errorResultXdr } : {}),
      ...(out.codes ? { resultCodes: out.codes } : {}) };
  }

  async getTransaction(hash: string): Promise<TransactionView | null> {
    const t = this.ledger.getTransaction(hash);
    if (!t) return null;
    return {
      hash: t.hash, ledger: t.ledger, successful: t.successful, createdAt: t.created_at, sourceAccount: t.source_account,
      feeAccount: t.fee_account, feeCharged: BigInt(t.fee_charged), memoType: t.memo_type, memo: t.memo ?? null,
      envelopeXdr: t.envelope_xdr, resultXdr: t.result_xdr,
    };
  }

  private joined(r: HorizonPaymentRecord): HorizonPaymentRecord {
    const tx = this.ledger.getTransaction(r.transaction_hash);
    const linked = withLinks(r, this.horizonUrl);
    return tx ? { ...linked, transaction: transactionLinks(tx, this.horizonUrl) } : linked;
  }

  async listPayments(account: string, o: ListPaymentsOptions = {}): Promise<PaymentsPage> {
    const records = this.ledger.listPayments({
      account, limit: o.limit ?? 10, order: o.order ?? 'asc', includeFailed: o.includeFailed ?? false,
      ...(o.cursor ? { cursor: BigInt(o.cursor === 'now' ? this.ledger.latestPagingToken() : o.cursor) } : {}),
    }).map((r) => this.joined(r));
    return { records, nextCursor: records.at(-1)?.paging_token ?? o.cursor ?? null };
  }

  watchPayments(account: string, cursor: string, onRecord: (record: HorizonPaymentRecord) => void): () => void {
    let last = cursor === 'now' ? this.ledger.latestPagingToken().toString() : cursor;
    const flush = () => {
      for (;;) {
        const batch = this.ledger.listPayments({ account, limit: 200, order: 'asc', includeFailed: false,
          ...(last ? { cursor: BigInt(last) } : {}) });
        for (const r of batch) {
          last = r.paging_token;
          onRecord(this.joined(r));
        }
        if (batch.length < 200) return;
      }
    };
    const onRecords = (records: HorizonPaymentRecord[]) => {
      if (records.some((r) => participants(r).includes(account))) flush();
    };
    this.ledger.events.on('records', onRecords);
    // Backlog is delivered asynchronously so the caller can finish wiring up first.
    queueMicrotask(flush);
    return () => this.ledger.events.off('records', onRecords);
  }

  async findStrictReceivePaths(query: StrictReceiveQuery): Promise<PathQuote[]> {
    return this.ledger.findStrictReceivePaths(query);
  }

  async findStrictSendPaths(query: StrictSendQuery): Promise<PathQuote[]> {
    return this.ledger.findStrictSendPaths(query);
  }
}
