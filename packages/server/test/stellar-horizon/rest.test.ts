/** The Horizon adapter's request/response mapping, against recorded Horizon responses via msw. */
import { http, HttpResponse } from 'msw';
import { TransactionBuilder, Networks } from '@stellar/stellar-sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHorizonNetwork, HorizonRequestError } from '../../src/stellar/horizon/index.js';
import { PUBNET_USDC_ISSUER } from '../../src/stellar/index.js';
import { fixture, fixtureText, hal, HORIZON, MockHorizon, problem } from './horizon-mock.js';
import { ACCOUNT, RECORDS } from './data.js';

const mock = new MockHorizon();
const { server } = mock;
const net = createHorizonNetwork({ kind: 'testnet', horizonUrl: HORIZON });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('loadAccount', () => {
  it('maps account.json: sequence, sponsorship counts and balances in stroops, pool shares left out', async () => {
    const body = fixture('account.json');
    server.use(http.get(`${HORIZON}/accounts/:id`, ({ params }) => (params.id === body.account_id ? hal(fixtureText('account.json')) : problem('error-404-not-found.json'))));
    const view = await net.loadAccount(body.account_id);
    expect(view).toMatchObject({ id: body.account_id, sequence: BigInt(body.sequence), subentryCount: 12, numSponsoring: 1, numSponsored: 2 });
    const usdc = view!.balances.find((b) => b.asset.code === 'USDC');
    const line = body.balances.find((b: any) => b.asset_code === 'USDC');
    expect(usdc).toEqual({ asset: { code: 'USDC', issuer: PUBNET_USDC_ISSUER }, balance: BigInt(line.balance.replace('.', '')), limit: BigInt(line.limit.replace('.', '')) });
    const native = body.balances.find((b: any) => b.asset_type === 'native');
    expect(view!.balances).toContainEqual({ asset: { code: 'XLM', issuer: null }, balance: BigInt(native.balance.replace('.', '')), limit: null });
    expect(view!.balances).toHaveLength(body.balances.filter((b: any) => b.asset_type !== 'liquidity_pool_shares').length);
  });

  it('is null for a 404 and a retryable error for a 429', async () => {
    server.use(http.get(`${HORIZON}/accounts/:id`, () => problem('error-404-not-found.json')));
    expect(await net.loadAccount(ACCOUNT)).toBeNull();
    server.use(http.get(`${HORIZON}/accounts/:id`, () => problem('error-429-rate-limit-exceeded.json')));
    const error = await net.loadAccount(ACCOUNT).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HorizonRequestError);
    expect(error).toMatchObject({ status: 429, problem: 'rate_limit_exceeded', retryable: true });
  });
});

const hashOf = (envelope: string) => Buffer.from(TransactionBuilder.fromXDR(envelope, Networks.TESTNET).hash()).toString('hex');

describe('submitTransaction', () => {
  it('posts the envelope (form-encoded tx=) and reports a success', async () => {
    const ok = fixture('submit-transaction-success.json');
    let posted = '';
    server.use(http.post(`${HORIZON}/transactions`, async ({ request }) => {
      posted = new URLSearchParams(await request.text()).get('tx') ?? '';
      return hal(fixtureText('submit-transaction-success.json'));
    }));
    const result = await net.submitTransaction(ok.envelope_xdr);
    expect(posted).toBe(ok.envelope_xdr);
    expect(result).toEqual({ hash: ok.hash, ledger: ok.ledger, successful: true, resultXdr: ok.result_xdr });
  });

  const failures = [
    'submit-failed-op_underfunded.json', 'submit-failed-op_no_trust.json', 'submit-failed-op_no_destination.json',
    'submit-failed-op_under_dest_min.json', 'submit-failed-op_low_reserve.json', 'submit-failed-op_no_source_account-docs.json',
    'submit-failed-tx_bad_seq-docs.json', 'submit-failed-tx_insufficient_fee.json', 'submit-failed-tx_insufficient_fee-docs.json',
  ];
  it.each(failures)('%s → successful:false with its result codes', async (name) => {
    const body = fixture(name);
    server.use(
      http.post(`${HORIZON}/transactions`, () => problem(name)),
      http.get(`${HORIZON}/transactions/:hash`, () => problem('error-404-not-found.json')),
    );
    const result = await net.submitTransaction(body.extras.envelope_xdr);
    expect(result).toEqual({
      hash: hashOf(body.extras.envelope_xdr), ledger: null, successful: false, resultCodes: body.extras.result_codes, resultXdr: body.extras.result_xdr,
    });
  });

  it('a tx_failed that Horizon has ingested reports its ledger (the 400 body does not carry it)', async () => {
    const name = 'submit-failed-op_underfunded.json';
    const hash = hashOf(fixture(name).extras.envelope_xdr);
    let asked = '';
    server.use(
      http.post(`${HORIZON}/transactions`, () => problem(name)),
      http.get(`${HORIZON}/transactions/:hash`, ({ params }) => {
        asked = String(params.hash);
        return hal({ ...fixture<object>('transaction.json'), hash, successful: false });
      }),
    );
    const result = await net.submitTransaction(fixture(name).extras.envelope_xdr);
    expect(asked).toBe(hash);
    expect(result.ledger).toBe(fixture('transaction.json').ledger);
    expect(result.resultCodes).toEqual({ transaction: 'tx_failed', operations: ['op_underfunded'] });
  });

  it('transaction_malformed (and an envelope we cannot decode) → tx_malformed, like the sandbox', async () => {
    server.use(http.post(`${HORIZON}/transactions`, () => problem('submit-failed-transaction_malformed-docs.json')));
    const ok = fixture('submit-transaction-success.json');
    expect(await net.submitTransaction(ok.envelope_xdr)).toMatchObject({ successful: false, ledger: null, resultCodes: { transaction: 'tx_malformed' } });
    expect(await net.submitTransaction('not xdr')).toEqual({ hash: '', ledger: null, successful: false, resultCodes: { transaction: 'tx_malformed' } });
  });

  it('a 504 timeout throws a retryable error (the same envelope must be looked up or resubmitted)', async () => {
    server.use(http.post(`${HORIZON}/transactions`, () => problem('error-504-timeout-docs.json')));
    const error = await net.submitTransaction(fixture('submit-transaction-success.json').envelope_xdr).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HorizonRequestError);
    expect(error).toMatchObject({ status: 504, problem: 'timeout', retryable: true });
  });
});

describe('submitTransactionAsync (POST /transactions_async)', () => {
  const ok = () => fixture('submit-transaction-success.json');
  const cases: Array<[string, number, object]> = [
    ['submit-async-pending.json', 201, { status: 'PENDING' }],
    ['submit-async-duplicate.json', 409, { status: 'DUPLICATE' }],
    ['submit-async-try_again_later.json', 503, { status: 'TRY_AGAIN_LATER' }],
    ['submit-async-error-tx_bad_seq.json', 400, { status: 'ERROR', errorResultXdr: 'AAAAAAAAAAD////7AAAAAA==', resultCodes: { transaction: 'tx_bad_seq' } }],
  ];
  for (const [name, status, expected] of cases) {
    it(`maps ${name} (HTTP ${status}) to its tx_status without throwing`, async () => {
      let posted = '';
      server.use(http.post(`${HORIZON}/transactions_async`, async ({ request }) => {
        posted = new URLSearchParams(await request.text()).get('tx') ?? '';
        return new HttpResponse(fixtureText(name), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });
      }));
      const result = await net.submitTransactionAsync(ok().envelope_xdr);
      expect(posted).toBe(ok().envelope_xdr);
      expect(result).toEqual({ hash: ok().hash, ...expected });
    });
  }

  it('an answer without a tx_status (a 504 from a proxy) throws a retryable error', async () => {
    server.use(http.post(`${HORIZON}/transactions_async`, () => problem('error-504-timeout-docs.json')));
    const error = await net.submitTransactionAsync(ok().envelope_xdr).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HorizonRequestError);
    expect(error).toMatchObject({ status: 504, retryable: true });
  });
});

describe('getTransaction', () => {
  const serve = (name: string) => server.use(http.get(`${HORIZON}/transactions/:hash`, ({ params }) =>
    (params.hash === fixture(name).hash ? hal(fixtureText(name)) : problem('error-404-not-found.json'))));

  it('maps transaction.json (text memo, string fees)', async () => {
    serve('transaction.json');
    const t = fixture('transaction.json');
    expect(await net.getTransaction(t.hash)).toEqual({
      hash: t.hash, ledger: t.ledger, successful: true, createdAt: t.created_at, sourceAccount: t.source_account, feeAccount: t.fee_account,
      feeCharged: BigInt(t.fee_charged), memoType: 'text', memo: t.memo, envelopeXdr: t.envelope_xdr, resultXdr: t.result_xdr,
    });
    expect(await net.getTransaction('0'.repeat(64))).toBeNull();
  });

  it('maps a fee-bump (the fee account pays, not the source) and an older numeric-fee resource', async () => {
    serve('transaction-fee-bump.json');
    const bump = fixture('transaction-fee-bump.json');
    const view = await net.getTransaction(bump.hash);
    expect(view).toMatchObject({ hash: bump.hash, feeAccount: bump.fee_account, sourceAccount: bump.source_account, feeCharged: BigInt(bump.fee_charged) });
    expect(view!.feeAccount).not.toBe(view!.sourceAccount);
    serve('transaction-testnet-docs.json');
    const old = fixture('transaction-testnet-docs.json');
    expect(await net.getTransaction(old.hash)).toMatchObject({ feeCharged: BigInt(old.fee_charged), memoType: 'none', memo: null, feeAccount: old.source_account });
  });
});

describe('listPayments', () => {
  it('pages /accounts/{id}/payments with join=transactions, cursor, limit and order; records are plain Horizon JSON', async () => {
    mock.published = RECORDS;
    mock.requests.length = 0;
    const first = await net.listPayments(ACCOUNT, { limit: 4 });
    expect(first.records).toEqual(RECORDS.slice(0, 4));
    expect(first.nextCursor).toBe(RECORDS[3]!.paging_token);
    const second = await net.listPayments(ACCOUNT, { cursor: first.nextCursor!, limit: 4, order: 'asc' });
    expect(second.records.map((r) => r.id)).toEqual(RECORDS.slice(4, 8).map((r) => r.id));
    const last = await net.listPayments(ACCOUNT, { cursor: RECORDS.at(-1)!.paging_token, limit: 4 });
    expect(last).toEqual({ records: [], nextCursor: RECORDS.at(-1)!.paging_token });
    const q = mock.pages.map((r) => Object.fromEntries(r.url.searchParams));
    expect(q[1]).toEqual({ join: 'transactions', cursor: RECORDS[3]!.paging_token, limit: '4', order: 'asc' });
    expect(mock.pages[0]!.url.pathname).toBe(`/accounts/${ACCOUNT}/payments`);
  });

  it('keeps the joined transaction (memo, ledger) of a real join=transactions page exactly as Horizon sent it', async () => {
    const page = fixture('operations-join-transactions-page.json');
    server.use(http.get(`${HORIZON}/accounts/:id/payments`, () => hal(fixtureText('operations-join-transactions-page.json'))));
    const { records } = await net.listPayments(ACCOUNT);
    expect(records).toEqual(page._embedded.records);
    expect(records[0]!.transaction).toMatchObject({ memo: page._embedded.records[0].transaction.memo, ledger: page._embedded.records[0].transaction.ledger });
  });
});

describe('path finding', () => {
  it('strict-receive: asks with the source assets and the destination amount; quotes in stroops', async () => {
    let query: Record<string, string> = {};
    server.use(http.get(`${HORIZON}/paths/strict-receive`, ({ request }) => {
      query = Object.fromEntries(new URL(request.url).searchParams);
      return hal(fixtureText('paths-strict-receive.json'));
    }));
    const usdc = { code: 'USDC', issuer: PUBNET_USDC_ISSUER };
    const quotes = await net.findStrictReceivePaths({ sourceAssets: [{ code: 'XLM', issuer: null }, usdc], destinationAsset: usdc, destinationAmount: 1_000_000n });
    expect(query).toMatchObject({
      source_assets: `native,USDC:${PUBNET_USDC_ISSUER}`, destination_asset_type: 'credit_alphanum4', destination_asset_code: 'USDC',
      destination_asset_issuer: PUBNET_USDC_ISSUER, destination_amount: '0.1000000',
    });
    const records = fixture('paths-strict-receive.json')._embedded.records;
    expect(quotes).toHaveLength(records.length);
    expect(quotes[1]).toEqual({
      sourceAsset: { code: 'XLM', issuer: null }, sourceAmount: 11_574_477n, destinationAsset: usdc, destinationAmount: 1_000_000n,
      path: records[1].path.map((p: any) => ({ code: p.asset_code, issuer: p.asset_issuer })),
    });
  });

  it('strict-send: quotes every record of the fixture', async () => {
    server.use(http.get(`${HORIZON}/paths/strict-send`, () => hal(fixtureText('paths-strict-send.json'))));
    const records = fixture('paths-strict-send.json')._embedded.records;
    const quotes = await net.findStrictSendPaths({ sourceAsset: { code: 'XLM', issuer: null }, sourceAmount: 10_000_000n, destinationAssets: [{ code: 'USDC', issuer: PUBNET_USDC_ISSUER }] });
    expect(quotes.map((q) => q.destinationAmount)).toEqual(records.map((r: any) => BigInt(r.destination_amount.replace('.', ''))));
  });
});
