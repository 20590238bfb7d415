/**
 * The ledger follower's reads over Horizon (readLedgers): the network-wide /payments list from a
 * ledger's first operation, bounded by the `Latest-Ledger` header, against recorded responses.
 */
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHorizonNetwork } from '../../src/stellar/horizon/index.js';
import { LedgerGapError, RateLimitedError, type HorizonPaymentRecord } from '../../src/stellar/index.js';
import { fixture, hal, HORIZON, MockHorizon, problem } from './horizon-mock.js';

const mock = new MockHorizon();
const { server } = mock;

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** payments-page.json: pubnet's create_account and payment in ledger 3, a create_account in ledger 7841 */
const PAGE = fixture('payments-page.json');
const ROOT = fixture('root.json');

interface Seen { path: string; cursor: string | null }

function horizon(options: { latest: number; elder?: number; pages?: (cursor: string) => HorizonPaymentRecord[]; header?: boolean }) {
  const seen: Seen[] = [];
  server.use(
    http.get(`${HORIZON}/`, ({ request }) => {
      seen.push({ path: '/', cursor: null });
      expect(new URL(request.url).pathname).toBe('/');
      return hal({ ...ROOT, history_latest_ledger: options.latest, history_elder_ledger: options.elder ?? ROOT.history_elder_ledger });
    }),
    http.get(`${HORIZON}/payments`, ({ request }) => {
      const url = new URL(request.url);
      const cursor = url.searchParams.get('cursor') ?? '';
      seen.push({ path: '/payments', cursor });
      expect(Object.fromEntries(url.searchParams)).toMatchObject({ order: 'asc', limit: '200', join: 'transactions' });
      const records = options.pages ? options.pages(cursor) : PAGE._embedded.records.filter((r: HorizonPaymentRecord) => BigInt(r.paging_token) > BigInt(cursor));
      return new HttpResponse(JSON.stringify({ ...PAGE, _embedded: { records } }), {
        headers: { 'content-type': 'application/hal+json', ...(options.header === false ? {} : { 'latest-ledger': String(options.latest) }) },
      });
    }),
  );
  return seen;
}

const net = () => createHorizonNetwork({ kind: 'pubnet', horizonUrl: HORIZON });

describe('readLedgers over Horizon', () => {
  it('reads every account\'s payments of ledgers from..from+N−1 in one request (after the root once), and nothing past them', async () => {
    const seen = horizon({ latest: 9000 });
    const network = net();
    const read = await network.readLedgers(3, 50);
    expect(read.through).toBe(52);
    expect(read.latest).toBe(9000);
    expect(read.records.map((r) => [r.id, r.type])).toEqual([['12884905985', 'create_account'], ['12884905986', 'payment']]);
    // the page starts at ledger 3's first operation: the cursor is 3 << 32
    expect(seen).toEqual([{ path: '/', cursor: null }, { path: '/payments', cursor: String(3n << 32n) }]);
    const next = await network.readLedgers(7800, 50);
    expect(next.records.map((r) => r.id)).toEqual(['33676838572033']);
    expect(next.through).toBe(7849);
    // the retention is known: one request per read
    expect(seen).toHaveLength(3);
  });

  it('says "nothing closed yet" (through = from − 1) when the ledger asked for is past Horizon\'s tip', async () => {
    horizon({ latest: 7841 });
    const read = await net().readLedgers(7842, 50);
    expect(read).toMatchObject({ through: 7841, records: [], latest: 7841 });
  });

  it('reads the tip from the root first when a proxy drops the Latest-Ledger header, never after the page', async () => {
    const seen = horizon({ latest: 10, header: false });
    const network = net();
    const read = await network.readLedgers(3, 50);
    expect(read.through).toBe(10);
    // the first read checks the retention at the root: its tip bounds the page
    expect(seen.map((s) => s.path)).toEqual(['/', '/payments']);
    seen.length = 0;
    await network.readLedgers(11, 50);
    // a headerless page without a root read before it is read again, the root first (from then on, every read)
    expect(seen.map((s) => s.path)).toEqual(['/payments', '/', '/payments']);
    seen.length = 0;
    await network.readLedgers(11, 50);
    expect(seen.map((s) => s.path)).toEqual(['/', '/payments']);
  });

  it('bounds the read by every page\'s Latest-Ledger: a later page from a Horizon behind the first says nothing past its tip', async () => {
    const base = PAGE._embedded.records[1] as HorizonPaymentRecord;
    const rec = (ledger: number, i: number) => {
      const id = String((BigInt(ledger) << 32n) + BigInt((i + 1) << 12) + 1n);
      return { ...base, id, paging_token: id };
    };
    // 200 records in ledger 5, then one in ledger 7; the second page's node has ingested up to 6 only
    const all = [...Array.from({ length: 200 }, (_, i) => rec(5, i)), rec(6, 0), rec(7, 0)];
    let pages = 0;
    server.use(
      http.get(`${HORIZON}/`, () => hal({ ...ROOT, history_latest_ledger: 8, history_elder_ledger: 1 })),
      http.get(`${HORIZON}/payments`, ({ request }) => {
        pages += 1;
        const cursor = BigInt(new URL(request.url).searchParams.get('cursor')!);
        const tip = pages === 1 ? 8 : 6;
        const records = all.filter((r) => BigInt(r.id) > cursor && Number(BigInt(r.id) >> 32n) <= tip).slice(0, 200);
        return new HttpResponse(JSON.stringify({ _embedded: { records } }), { headers: { 'content-type': 'application/hal+json', 'latest-ledger': String(tip) } });
      }),
    );
    const read = await net().readLedgers(5, 50);
    expect(read.through).toBe(6);
    expect(read.records.map((r) => Number(BigInt(r.id) >> 32n)).filter((l) => l > 5)).toEqual([6]);
  });

  it('a 410 for a cursor before Horizon\'s history is a LedgerGapError, not an error to retry', async () => {
    server.use(
      http.get(`${HORIZON}/`, () => hal({ ...ROOT, history_latest_ledger: 9000, history_elder_ledger: 1 })),
      http.get(`${HORIZON}/payments`, () => HttpResponse.json({ type: 'https://stellar.org/horizon-errors/before_history', title: 'Data Requested Is Before Recorded History', status: 410 }, { status: 410 })),
    );
    const network = net();
    await expect(network.readLedgers(3, 50)).rejects.toBeInstanceOf(LedgerGapError);
  });

  it('pages a busy ledger until it is complete: a full page of 200, then the rest after its last paging token', async () => {
    const base = PAGE._embedded.records[1] as HorizonPaymentRecord;
    const ledger5 = Array.from({ length: 230 }, (_, i) => {
      const id = String((5n << 32n) + BigInt((i + 1) << 12) + 1n);
      return { ...base, id, paging_token: id };
    });
    const seen = horizon({ latest: 6, pages: (cursor) => ledger5.filter((r) => BigInt(r.id) > BigInt(cursor)).slice(0, 200) });
    const read = await net().readLedgers(5, 50);
    expect(read.records).toHaveLength(230);
    expect(read.through).toBe(6);
    expect(seen.filter((s) => s.path === '/payments').map((s) => s.cursor)).toEqual([String(5n << 32n), ledger5[199]!.paging_token]);
  });

  it('refuses to skip: a ledger older than Horizon keeps (history_elder_ledger) is a LedgerGapError that says what to do', async () => {
    horizon({ latest: 9000, elder: 100 });
    const error = await net().readLedgers(3, 50).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LedgerGapError);
    expect(error).toMatchObject({ wanted: 3, oldest: 100 });
    expect((error as Error).message).toMatch(/ledgers 3–99 cannot be observed/);
  });

  it('a 429 is a RateLimitedError carrying Retry-After, and the request is counted as rate limited', async () => {
    const network = net();
    const counted: [string, string | null][] = [];
    network.meterRequests((method, failure) => counted.push([method, failure]));
    server.use(http.get(`${HORIZON}/`, () => {
      const limited = problem('error-429-rate-limit-exceeded.json');
      limited.headers.set('retry-after', '7');
      return limited;
    }));
    const error = await network.readLedgers(3, 50).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 7000 });
    expect(counted).toEqual([['root', 'rate_limited']]);
  });
});
