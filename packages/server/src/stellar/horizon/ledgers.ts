/**
 * The ledger follower's reads over Horizon: the network-wide /payments list (payments, both path
 * payments with the amount received, create_account, account_merge, and contract invocations
 * with the balance changes Horizon read from the Stellar Asset Contracts' events; successful
 * transactions only), paged from the first operation of a ledger, for every account at once. Horizon's
 * `Latest-Ledger` response header says which ledgers the page is complete for; the root's
 * `history_elder_ledger` is its retention. One request per read while the network is quiet.
 */
import type { HorizonPaymentRecord } from '../horizon-types.js';
import { LedgerGapError, RateLimitedError, type LedgerRead } from '../network.js';
import { HorizonRequestError } from './errors.js';

const PAGE = 200;
/** a cursor this far behind the tip checks Horizon's retention again (about a day of ledgers) */
const RECHECK_RETENTION_LEDGERS = 17_280;

export type RequestCounter = (method: string, failure: 'rate_limited' | 'error' | null) => void;

interface Root {
  history_latest_ledger: number;
  history_latest_ledger_closed_at?: string;
  history_elder_ledger: number;
}

interface PaymentsPage {
  _embedded: { records: HorizonPaymentRecord[] };
}

function retryAfterMs(response: Response): number | null {
  const raw = response.headers.get('retry-after');
  if (!raw) return null;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

const recordLedger = (r: HorizonPaymentRecord) => r.transaction?.ledger ?? Number(BigInt(r.id) >> 32n);

export class HorizonLedgerReader {
  private elder: number | null = null;

  constructor(private readonly baseUrl: string, private readonly count: () => RequestCounter | null) {}

  private async get<T>(method: string, path: string): Promise<{ body: T; latest: number | null }> {
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, { headers: { accept: 'application/hal+json, application/json' } });
    } catch (error) {
      this.count()?.(method, 'error');
      throw new HorizonRequestError(`Horizon GET ${path} failed: ${(error as Error).message}`, null, null);
    }
    if (response.status === 429) {
      this.count()?.(method, 'rate_limited');
      throw new RateLimitedError(retryAfterMs(response), `Horizon GET ${path}`);
    }
    if (!response.ok) {
      this.count()?.(method, 'error');
      const problem = await response.json().catch(() => null) as { title?: string; type?: string } | null;
      throw new HorizonRequestError(`Horizon GET ${path} failed (${response.status}): ${problem?.title ?? response.statusText}`, response.status,
        problem?.type?.split('/').pop() ?? null);
    }
    this.count()?.(method, null);
    const header = response.headers.get('latest-ledger');
    return { body: await response.json() as T, latest: header && /^\d+$/.test(header) ? Number(header) : null };
  }

  private async root(): Promise<Root> {
    const { body } = await this.get<Root>('root', '/');
    this.elder = Number(body.history_elder_ledger);
    return body;
  }

  /** Without a Latest-Ledger header (a proxy dropped it), the root is read first: its tip is then older than what the page saw. */
  private headerless = false;

  async read(from: number, maxLedgers: number): Promise<LedgerRead> {
    let closedAt: number | null = null;
    let rootTip: number | null = null;
    if (this.elder === null || this.headerless) {
      const root = await this.root();
      closedAt = root.history_latest_ledger_closed_at ? Date.parse(root.history_latest_ledger_closed_at) : null;
      rootTip = Number(root.history_latest_ledger);
    }
    if (from < this.elder!) throw new LedgerGapError(from, this.elder!, `Horizon at ${this.baseUrl}`);
    const records: HorizonPaymentRecord[] = [];
    let cursor = String(BigInt(from) << 32n);
    // every page bounds the read by its own Latest-Ledger: behind a load balancer a later page may
    // come from a Horizon that has ingested less, and its short page says nothing past its tip
    let through = Math.min(rootTip ?? Number.POSITIVE_INFINITY, from + maxLedgers - 1);
    let latest = rootTip ?? 0;
    for (;;) {
      const page = await this.pageAfter(cursor, from);
      if (page.latest === null && rootTip === null) {
        // no bound for this page: read the root first from now on, and this read again
        this.headerless = true;
        return this.read(from, maxLedgers);
      }
      if (page.latest !== null) {
        through = Math.min(through, page.latest);
        latest = Math.max(latest, page.latest);
      }
      if (latest - from > RECHECK_RETENTION_LEDGERS) this.elder = null;
      const batch = page.body._embedded.records;
      const past = batch.findIndex((record) => recordLedger(record) > through);
      records.push(...(past === -1 ? batch : batch.slice(0, past)));
      if (past !== -1 || batch.length < PAGE) break;
      cursor = batch.at(-1)!.paging_token;
    }
    const bounded = Math.max(through, from - 1);
    return { through: bounded, records: records.filter((record) => recordLedger(record) <= bounded), latest, latestClosedAtMs: closedAt };
  }

  /** One page; Horizon answers 410 for a cursor older than the history it keeps. */
  private async pageAfter(cursor: string, from: number): Promise<{ body: PaymentsPage; latest: number | null }> {
    try {
      return await this.get<PaymentsPage>('payments', `/payments?cursor=${cursor}&order=asc&limit=${PAGE}&join=transactions`);
    } catch (error) {
      if (!(error instanceof HorizonRequestError) || error.status !== 410) throw error;
      const elder = Number((await this.root()).history_elder_ledger);
      throw new LedgerGapError(from, elder, `Horizon at ${this.baseUrl}`);
    }
  }
}
