/**
 * Value observed, not operation types (DESIGN.md §11), over Horizon: /payments lists contract
 * invocations (`invoke_host_function`) with the balance changes Horizon read from the Stellar
 * Asset Contracts' events. A contract account's (C…) transfer into a watched account is credited
 * with its exact amount and payer, and a muxed destination keeps its id. The records are
 * CONSTRUCTED in Horizon's shape (stellar/go protocols/horizon/operations InvokeHostFunction and
 * AssetContractBalanceChange): no recorded one with a C… payer was found (fixtures/events/SOURCES.md).
 */
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { receiversOf } from '../../src/pipeline/follower.js';
import { movementsInto } from '../../src/pipeline/records.js';
import { createHorizonNetwork } from '../../src/stellar/horizon/index.js';
import type { HorizonInvokeHostFunctionOp } from '../../src/stellar/horizon-types.js';
import { SANDBOX_ASSETS } from '@fundkit/sandbox';
import { WALLET } from '../fixtures/events/constructed.js';
import type { TestServer } from '../helpers/server.js';
import { createIntent, key, startPipelineServer, waitFor } from '../pipeline/helpers.js';
import { fixture, hal, HORIZON, MockHorizon } from './horizon-mock.js';

const mock = new MockHorizon();
const { server } = mock;
beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const ROOT = fixture('root.json');
const USDC = { asset_type: 'credit_alphanum4', asset_code: 'USDC', asset_issuer: SANDBOX_ASSETS.USDC.issuer! };
const OTHER = 'GCNL55IJTH2HX26HLNIGYD2JIQLTBAQL3SVPNZA6PXK7NAVHU423WOTE';

/** An invoke_host_function record of /payments?join=transactions, in ledger 5. */
function invocation(to: string, order = 1): HorizonInvokeHostFunctionOp {
  const id = String((5n << 32n) | (BigInt(order) << 12n) | 1n);
  const hash = String(order).repeat(64).slice(0, 64);
  return {
    id, paging_token: id, transaction_successful: true, source_account: OTHER, type: 'invoke_host_function', type_i: 24,
    created_at: '2026-12-06T12:00:00Z', transaction_hash: hash, function: 'HostFunctionTypeHostFunctionTypeInvokeContract',
    asset_balance_changes: [
      // the wallet pays two accounts in one invocation: one of them ours, to its muxed address
      { ...USDC, type: 'transfer', from: WALLET, to: OTHER, amount: '1.0000000' },
      { ...USDC, type: 'transfer', from: WALLET, to, amount: '12.5000000', destination_muxed_id: '42' },
      { ...USDC, type: 'burn', from: WALLET, amount: '3.0000000' },
      // a memo carried where a muxed id goes is no muxed id
      { ...USDC, type: 'transfer', from: WALLET, to, amount: '0.0000001', destination_muxed_id: 'order 7', destination_muxed_id_type: 'string' },
    ],
    transaction: { id: hash, hash, ledger: 5, successful: true, memo_type: 'none' } as HorizonInvokeHostFunctionOp['transaction'],
  };
}

function serve(records: HorizonInvokeHostFunctionOp[]) {
  server.use(
    http.get(`${HORIZON}/`, () => hal({ ...ROOT, history_latest_ledger: 5, history_elder_ledger: 1 })),
    http.get(`${HORIZON}/payments`, () => new HttpResponse(JSON.stringify({ _embedded: { records } }), {
      headers: { 'content-type': 'application/hal+json', 'latest-ledger': '5' },
    })),
  );
}

describe('readLedgers over Horizon: contract invocations', () => {
  it('yields invoke_host_function records; each transfer into an account is one movement with its payer, amount and muxed id', async () => {
    const deposit = 'GBXBIYGVHATBQOB3CT3PYRUAPM4N5OL3CU44TK32D7QYTKMWCC2EYEMY';
    serve([invocation(deposit)]);
    const read = await createHorizonNetwork({ kind: 'testnet', horizonUrl: HORIZON }).readLedgers(5, 10);
    expect(read.records).toHaveLength(1);
    const record = read.records[0]!;
    expect(receiversOf(record)).toEqual([OTHER, deposit]);
    expect(movementsInto(record, deposit)).toEqual([{
      operationId: `${record.id}-1`, asset: SANDBOX_ASSETS.USDC, stellarAsset: `USDC:${SANDBOX_ASSETS.USDC.issuer}`, amount: 125_000_000n,
      from: WALLET, to: deposit, toMuxedId: '42', memoType: 'none', memo: null,
    }, {
      operationId: `${record.id}-3`, asset: SANDBOX_ASSETS.USDC, stellarAsset: `USDC:${SANDBOX_ASSETS.USDC.issuer}`, amount: 1n,
      from: WALLET, to: deposit, toMuxedId: null, memoType: 'none', memo: null,
    }]);
    // a failed transaction moved nothing
    expect(movementsInto({ ...record, transaction_successful: false }, deposit)).toEqual([]);
  });
});

describe('the pipeline credits a contract account\'s SAC transfer (read over Horizon)', () => {
  let t: TestServer;
  beforeAll(async () => { t = await startPipelineServer(); });
  afterAll(() => t.close());

  it('once, with the exact amount and the C… payer', async () => {
    const intent = await createIntent(t, { amount: '20.00' });
    const deposit = intent.deposit_account.address as string;
    serve([invocation(deposit, 3)]);
    const read = await createHorizonNetwork({ kind: 'testnet', horizonUrl: HORIZON }).readLedgers(5, 10);
    const observer = t.server.services.pipeline.pipeline.observer!;
    for (const pass of [1, 2]) {
      // as the follower does: the watched receivers only (the other one is no deposit account)
      for (const record of read.records) for (const address of receiversOf(record).filter((a) => a === deposit)) expect(await observer.handle(address, record), `pass ${pass}`).toBe(true);
    }
    // the invocation moved money into the deposit account twice: two payments, each once
    const payments = await waitFor(async () => (await t.request('GET', `/v1/funding-intents/${intent.id}/payments`, { key })).body.data as any[], (p) => p.length > 1);
    expect(payments.map((p) => [p.operation_id, p.amount, p.payer_address, p.destination_address]).sort()).toEqual([
      [`${read.records[0]!.id}-1`, '12.5000000', WALLET, deposit], [`${read.records[0]!.id}-3`, '0.0000001', WALLET, deposit],
    ]);
    const after = await waitFor(async () => (await t.request('GET', `/v1/funding-intents/${intent.id}`, { key })).body, (i) => i.status === 'PARTIALLY_FUNDED');
    expect(after.received_amount).toBe('12.5000001');
  });
});
