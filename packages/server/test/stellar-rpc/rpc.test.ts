/**
 * The Stellar RPC adapter against a JSON-RPC endpoint served by msw. getTransactions answers with
 * the recorded protocol-27 pubnet transactions (test/fixtures/rpc/transactions.json: envelope and
 * result XDR as mainnet RPC returned them; SOURCES.md). The corpus keeps only txHash and the XDR
 * of each: the test gives them ledgers (10 a ledger from 63800108) and application orders, in the
 * corpus's order. Error answers follow stellar-rpc's methods (get_transactions.go, jrpc2 codes).
 */
import { readFileSync } from 'node:fs';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Asset, FeeBumpTransaction, Keypair, Networks, TransactionBuilder, xdr, type OperationRecord } from '@stellar/stellar-sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resolveNetwork } from '../../src/stellar/networks.js';
import { createRpcNetwork, toid } from '../../src/stellar/rpc/index.js';
import { LedgerGapError, RateLimitedError } from '../../src/stellar/index.js';
import type { HorizonPathPaymentOp } from '../../src/stellar/horizon-types.js';
import { toStroops } from '../../src/lib/money.js';

const RPC = 'http://rpc.test/rpc';
const corpus = JSON.parse(readFileSync(new URL('../fixtures/rpc/transactions.json', import.meta.url), 'utf8')) as {
  records: { txHash: string; envelopeXdr: string; resultXdr: string; resultMetaXdr: string }[];
};
const FIRST = 63800108;
const PER_LEDGER = 10;
const LATEST = FIRST + corpus.records.length / PER_LEDGER - 1;
const transactions = corpus.records.map((r, i) => ({
  status: 'SUCCESS', txHash: r.txHash, ledger: FIRST + Math.floor(i / PER_LEDGER), applicationOrder: (i % PER_LEDGER) + 1,
  feeBump: TransactionBuilder.fromXdr(r.envelopeXdr, Networks.PUBLIC) instanceof FeeBumpTransaction,
  createdAt: 1785000000 + i, envelopeXdr: r.envelopeXdr, resultXdr: r.resultXdr, resultMetaXdr: r.resultMetaXdr,
}));

type Call = { method: string; params: any };
const calls: Call[] = [];
let answer: (call: Call) => Response | object = () => ({});
const server = setupServer(http.post(RPC, async ({ request }) => {
  const call = await request.json() as Call;
  calls.push(call);
  const out = answer(call);
  return out instanceof Response ? out : HttpResponse.json({ jsonrpc: '2.0', id: 1, ...out });
}));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => { calls.length = 0; });
afterAll(() => server.close());

const oldest = FIRST - 100;
const health = { status: 'healthy', latestLedger: LATEST, oldestLedger: oldest, ledgerRetentionWindow: 17280 };
/** stellar-rpc's getTransactions over the corpus: from startLedger (or after the cursor), `limit` at most. */
function getTransactions(params: any) {
  if (params.startLedger !== undefined && (params.startLedger < oldest || params.startLedger > LATEST)) {
    return { error: { code: -32600, message: `start ledger must be between the oldest ledger: ${oldest} and the latest ledger: ${LATEST} for this rpc instance.` } };
  }
  const limit = params.pagination?.limit ?? 50;
  const after = params.pagination?.cursor ? BigInt(params.pagination.cursor) : toid(params.startLedger, 0, 0);
  const page = transactions.filter((t) => toid(t.ledger, t.applicationOrder, 0) > after).slice(0, limit);
  const last = page.at(-1);
  return { result: {
    transactions: page, latestLedger: LATEST, latestLedgerCloseTimestamp: 1785000100, oldestLedger: oldest, oldestLedgerCloseTimestamp: 1784000000,
    cursor: last && page.length === limit ? String(toid(last.ledger, last.applicationOrder, 0)) : String(toid(LATEST, PER_LEDGER, 0)),
  } };
}

const profile = resolveNetwork('pubnet', { passphrase: null, rpcUrl: RPC, horizonUrl: null, friendbotUrl: null, issuers: null, api: 'rpc' });
const network = () => createRpcNetwork(profile);

function opsOf(envelopeXdr: string): OperationRecord[] {
  const tx = TransactionBuilder.fromXdr(envelopeXdr, Networks.PUBLIC);
  return (tx instanceof FeeBumpTransaction ? tx.innerTransaction : tx).operations as OperationRecord[];
}

describe('readLedgers over Stellar RPC (recorded protocol-27 pubnet transactions)', () => {
  it('turns every payment-type operation of the ledgers into Horizon\'s payment records, ids being Horizon\'s operation ids', async () => {
    answer = (call) => (call.method === 'getTransactions' ? getTransactions(call.params) : { error: { code: -32601, message: 'unexpected' } });
    const read = await network().readLedgers(FIRST, 50);
    expect(read).toMatchObject({ through: LATEST, latest: LATEST, latestClosedAtMs: 1785000100_000 });
    // 123 payments, 3 strict-send and 3 strict-receive path payments in the corpus; offers and trustlines are not payments
    expect(read.records).toHaveLength(129);
    expect(calls.map((c) => c.method)).toEqual(['getTransactions']);
    const i = transactions.findIndex((t) => opsOf(t.envelopeXdr)[0]!.type === 'payment');
    const t = transactions[i]!;
    const op = opsOf(t.envelopeXdr)[0] as Extract<OperationRecord, { type: 'payment' }>;
    const record = read.records.find((r) => r.transaction_hash === t.txHash)!;
    expect(record).toMatchObject({
      id: String(toid(t.ledger, t.applicationOrder, 1)), type: 'payment', to: op.destination, amount: op.amount, transaction_successful: true,
      transaction: { ledger: t.ledger, hash: t.txHash },
    });
    expect(record).toMatchObject(op.asset.isNative() ? { asset_type: 'native' } : { asset_code: op.asset.getCode(), asset_issuer: op.asset.getIssuer() });
  });

  it('credits what a strict-send path payment delivered (its result), never its destMin', async () => {
    answer = (call) => getTransactions(call.params);
    const read = await network().readLedgers(FIRST, 50);
    const sends = read.records.filter((r): r is HorizonPathPaymentOp => r.type === 'path_payment_strict_send');
    expect(sends).toHaveLength(3);
    for (const s of sends) expect(toStroops(s.amount)).toBeGreaterThanOrEqual(toStroops(s.destination_min!));
    // at least one delivered more than its minimum: the amount is the ledger's, not the request's
    expect(sends.some((s) => s.amount !== s.destination_min)).toBe(true);
  });

  it('asks an RPC with a smaller page for less, pages with its cursor while pages come back full, and stops at maxLedgers', async () => {
    // an RPC configured with 7 transactions a page at most refuses more, as stellar-rpc does
    answer = (call) => (call.params.pagination?.limit > 7
      ? { error: { code: -32600, message: 'limit must not exceed 7' } } : getTransactions(call.params));
    const read = await network().readLedgers(FIRST, 2);
    expect(read.through).toBe(FIRST + 1);
    expect(new Set(read.records.map((r) => r.transaction!.ledger))).toEqual(new Set([FIRST, FIRST + 1]));
    expect(read.records).toEqual((await (async () => {
      answer = (call) => getTransactions(call.params);
      return (await network().readLedgers(FIRST, 50)).records.filter((r) => r.transaction!.ledger <= FIRST + 1);
    })()));
    // 200 refused, then 7, 7 and 7 (the third crosses into ledger FIRST + 2): from the start, then after each page's cursor
    const pages = calls.slice(0, 4).map((c) => [c.params.startLedger, c.params.pagination.limit, c.params.pagination.cursor]);
    expect(pages).toEqual([[FIRST, 200, undefined], [FIRST, 7, undefined], [undefined, 7, String(toid(FIRST, 7, 0))], [undefined, 7, String(toid(FIRST + 1, 4, 0))]]);
  });

  it('says "nothing closed yet" past the tip (the error names the range), and refuses to skip before the retention window', async () => {
    answer = (call) => (call.method === 'getHealth' ? { result: health } : getTransactions(call.params));
    expect(await network().readLedgers(LATEST + 1, 50)).toMatchObject({ through: LATEST, records: [] });
    expect(calls.map((c) => c.method)).toEqual(['getTransactions']);
    // an RPC that words the error otherwise: getHealth tells which side of its range
    answer = (call) => (call.method === 'getHealth' ? { result: health } : { error: { code: -32600, message: 'out of range' } });
    calls.length = 0;
    expect(await network().readLedgers(LATEST + 1, 50)).toMatchObject({ through: LATEST, records: [] });
    expect(calls.map((c) => c.method)).toEqual(['getTransactions', 'getHealth']);
    answer = (call) => (call.method === 'getHealth' ? { result: health } : getTransactions(call.params));
    const error = await network().readLedgers(oldest - 5, 50).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LedgerGapError);
    expect((error as Error).message).toMatch(/ledger 63800003 is gone/);
  });

  it('a 429 is a RateLimitedError with Retry-After, counted as rate limited', async () => {
    answer = () => new HttpResponse('rate limited', { status: 429, headers: { 'retry-after': '3' } });
    const net = network();
    const counted: [string, string | null][] = [];
    net.meterRequests((method, failure) => counted.push([method, failure]));
    const error = await net.readLedgers(FIRST, 5).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ retryAfterMs: 3000 });
    expect(counted).toEqual([['getTransactions', 'rate_limited']]);
  });
});

describe('accounts, submission and lookups over Stellar RPC', () => {
  it('loadAccount reads the account and its USDC/EURC trustlines with one getLedgerEntries', async () => {
    const owner = Keypair.random();
    const usdc = new Asset('USDC', profile.issuers.USDC);
    // constructed entries (the shapes getLedgerEntries returns: key, xdr = LedgerEntryData, lastModifiedLedgerSeq)
    const accountEntry = xdr.LedgerEntryData.account(new xdr.AccountEntry({
      accountId: owner.xdrAccountId(), balance: 125_0000000n, seqNum: 42n, numSubEntries: 1, inflationDest: null, flags: 0, homeDomain: '',
      thresholds: Buffer.from([1, 0, 0, 0]), signers: [], ext: xdr.AccountEntryExt.v0(),
    } as never));
    const line = xdr.LedgerEntryData.trustline(new xdr.TrustLineEntry({
      accountId: owner.xdrAccountId(), asset: usdc.toTrustLineXdrObject(), balance: 7_5000000n, limit: 922337203685_4775807n, flags: 1, ext: xdr.TrustLineEntryExt.v0(),
    } as never));
    answer = (call) => {
      const [accountKey, usdcKey, eurcKey] = call.params.keys as string[];
      expect(eurcKey).toBeDefined();
      return { result: { latestLedger: LATEST, entries: [
        { key: accountKey, xdr: accountEntry.toXdr('base64'), lastModifiedLedgerSeq: LATEST },
        { key: usdcKey, xdr: line.toXdr('base64'), lastModifiedLedgerSeq: LATEST },
      ] } };
    };
    const view = await network().loadAccount(owner.publicKey());
    expect(calls.map((c) => c.method)).toEqual(['getLedgerEntries']);
    expect(view).toEqual({
      id: owner.publicKey(), sequence: 42n, subentryCount: 1, numSponsoring: 0, numSponsored: 0,
      balances: [{ asset: { code: 'USDC', issuer: profile.issuers.USDC }, balance: 7_5000000n, limit: 922337203685_4775807n }, { asset: { code: 'XLM', issuer: null }, balance: 125_0000000n, limit: null }],
    });
    answer = () => ({ result: { latestLedger: LATEST, entries: [] } });
    expect(await network().loadAccount(owner.publicKey())).toBeNull();
  });

  it('sendTransaction: PENDING as is; ERROR with Horizon\'s result codes from errorResultXdr', async () => {
    const t = transactions[0]!;
    answer = () => ({ result: { status: 'PENDING', hash: t.txHash, latestLedger: LATEST, latestLedgerCloseTime: '1785000100' } });
    expect(await network().submitTransactionAsync(t.envelopeXdr)).toEqual({ status: 'PENDING', hash: t.txHash });
    // a real txBAD_SEQ TransactionResult (test/stellar-horizon/fixtures/submit-async-error-tx_bad_seq.json)
    answer = () => ({ result: { status: 'ERROR', hash: t.txHash, errorResultXdr: 'AAAAAAAAAAD////7AAAAAA==', latestLedger: LATEST, latestLedgerCloseTime: '1' } });
    expect(await network().submitTransactionAsync(t.envelopeXdr)).toMatchObject({ status: 'ERROR', resultCodes: { transaction: 'tx_bad_seq' } });
  });

  it('getTransaction: null while NOT_FOUND, then the view with the fee charged and memo from the XDR', async () => {
    const t = transactions[0]!;
    answer = () => ({ result: { status: 'NOT_FOUND', txHash: t.txHash, latestLedger: LATEST, latestLedgerCloseTime: '1', oldestLedger: oldest, oldestLedgerCloseTime: '1' } });
    expect(await network().getTransaction(t.txHash)).toBeNull();
    answer = () => ({ result: { ...t, latestLedger: LATEST, latestLedgerCloseTime: '1', oldestLedger: oldest, oldestLedgerCloseTime: '1' } });
    const view = await network().getTransaction(t.txHash);
    const result = xdr.TransactionResult.fromXdr(t.resultXdr, 'base64');
    expect(view).toMatchObject({ hash: t.txHash, ledger: t.ledger, successful: true, feeCharged: BigInt(result.feeCharged), envelopeXdr: t.envelopeXdr });
  });

  it('getNetwork gives the passphrase the start-up check compares', async () => {
    answer = () => ({ result: { passphrase: Networks.PUBLIC, protocolVersion: 27 } });
    expect(await network().networkPassphrase()).toBe(Networks.PUBLIC);
  });
});
