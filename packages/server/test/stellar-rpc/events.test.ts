/**
 * Value observed, not operation types (DESIGN.md §11), over Stellar RPC: getTransactions'
 * resultMetaXdr carries the Soroban `transfer` events of each invocation. A Stellar Asset
 * Contract's transfer from a contract account (C…) to a watched account is credited with its
 * exact amount and its payer; a lookalike event from any other contract is not money. These
 * invocations are CONSTRUCTED (test/fixtures/events/constructed.ts), for the shapes no recording
 * shows (recorded-transfers.test.ts reads a real one);
 * the recorded pubnet corpus (fixtures/rpc) checks the SAC ids and the CAP-67 event shapes
 * against real meta.
 */
import { readFileSync } from 'node:fs';
import { Account, Asset, MuxedAccount, Networks, StrKey } from '@stellar/stellar-sdk';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { receiversOf } from '../../src/pipeline/follower.js';
import { movementsInto } from '../../src/pipeline/records.js';
import { resolveNetwork } from '../../src/stellar/networks.js';
import { createRpcNetwork, paymentRecords, sacIndex, type RpcTransaction } from '../../src/stellar/rpc/index.js';
import { transferEvents } from '../../src/stellar/rpc/xdr-read.js';
import type { HorizonInvokeHostFunctionOp } from '../../src/stellar/horizon-types.js';
import { IMPOSTOR, invokeTransaction, WALLET, type Movement } from '../fixtures/events/constructed.js';

const RPC = 'http://rpc.test/rpc';
const PASSPHRASE = Networks.TESTNET;
const profile = resolveNetwork('testnet', { passphrase: null, rpcUrl: RPC, horizonUrl: null, friendbotUrl: null, issuers: null, api: 'rpc' });
const USDC = new Asset('USDC', profile.issuers.USDC);
const DEPOSIT = 'GBXBIYGVHATBQOB3CT3PYRUAPM4N5OL3CU44TK32D7QYTKMWCC2EYEMY';

let page: ReturnType<typeof invokeTransaction>[] = [];
const methods: string[] = [];
const server = setupServer(http.post(RPC, async ({ request }) => {
  const call = await request.json() as { method: string };
  methods.push(call.method);
  if (call.method !== 'getTransactions') return HttpResponse.json({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'unexpected' } });
  const latest = Math.max(...page.map((t) => t.ledger));
  return HttpResponse.json({ jsonrpc: '2.0', id: 1, result: {
    transactions: page, latestLedger: latest, latestLedgerCloseTimestamp: 1785000100, oldestLedger: 1, oldestLedgerCloseTimestamp: 1784000000, cursor: '1',
  } });
}));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const sac = (asset: Asset) => asset.contractId(PASSPHRASE);
const move = (m: Partial<Movement> & { to: string }): Movement => ({ contract: sac(USDC), asset: USDC, from: WALLET, stroops: 125_000_000n, ...m });
const changesOf = (records: { type: string }[]) => (records as HorizonInvokeHostFunctionOp[]).flatMap((r) => r.asset_balance_changes ?? []);

describe('readLedgers over Stellar RPC: Soroban transfers', () => {
  it('a SAC transfer from a contract account is a balance change with its exact amount and payer; a lookalike contract\'s is not', async () => {
    page = [
      invokeTransaction(move({ to: DEPOSIT }), { ledger: 100, order: 1, passphrase: PASSPHRASE }),
      // any contract can emit a `transfer` naming USDC: only the USDC SAC's events are money
      invokeTransaction(move({ contract: IMPOSTOR, to: DEPOSIT, stroops: 999_000_000n }), { ledger: 100, order: 2, passphrase: PASSPHRASE, sequence: '200' }),
      // CAP-67: a muxed destination's id in the data map; XLM through its SAC
      invokeTransaction(move({ contract: sac(Asset.native()), asset: Asset.native(), to: DEPOSIT, stroops: 30_000_001n, toMuxedId: 18446744073709551615n }),
        { ledger: 101, order: 1, passphrase: PASSPHRASE, sequence: '300' }),
      // before protocol 23: TransactionMeta v3, the events in sorobanMeta
      invokeTransaction(move({ to: DEPOSIT, stroops: 1n }), { ledger: 101, order: 2, passphrase: PASSPHRASE, sequence: '400', meta: 3 }),
      // a muxed address in the topic itself: its base account, and its id
      invokeTransaction(move({ to: new MuxedAccount(new Account(DEPOSIT, '0'), '77').accountId(), stroops: 2n }),
        { ledger: 101, order: 4, passphrase: PASSPHRASE, sequence: '600' }),
      // the issuer pays through the SAC: a mint (CAP-67), and before protocol 23 its older topics
      invokeTransaction(move({ from: profile.issuers.USDC, to: DEPOSIT, stroops: 3n, mint: 'cap67' }), { ledger: 101, order: 5, passphrase: PASSPHRASE, sequence: '700' }),
      invokeTransaction(move({ from: profile.issuers.USDC, to: DEPOSIT, stroops: 4n, mint: 'legacy' }), { ledger: 101, order: 6, passphrase: PASSPHRASE, sequence: '800', meta: 3 }),
      // a failed transaction moved nothing
      { ...invokeTransaction(move({ to: DEPOSIT, stroops: 5n }), { ledger: 101, order: 3, passphrase: PASSPHRASE, sequence: '500' }), status: 'FAILED' },
    ];
    const read = await createRpcNetwork(profile).readLedgers(100, 10);
    // the events come with the transactions: still one request per read, no getEvents
    expect(methods).toEqual(['getTransactions']);
    expect(read.through).toBe(101);
    expect(read.records.map((r) => r.type)).toEqual(Array(6).fill('invoke_host_function'));
    expect(changesOf(read.records)).toEqual([
      { type: 'transfer', from: WALLET, to: DEPOSIT, amount: '12.5000000', asset_type: 'credit_alphanum4', asset_code: 'USDC', asset_issuer: profile.issuers.USDC },
      { type: 'transfer', from: WALLET, to: DEPOSIT, amount: '3.0000001', asset_type: 'native', destination_muxed_id: '18446744073709551615', destination_muxed_id_type: 'uint64' },
      { type: 'transfer', from: WALLET, to: DEPOSIT, amount: '0.0000001', asset_type: 'credit_alphanum4', asset_code: 'USDC', asset_issuer: profile.issuers.USDC },
      { type: 'transfer', from: WALLET, to: DEPOSIT, amount: '0.0000002', asset_type: 'credit_alphanum4', asset_code: 'USDC', asset_issuer: profile.issuers.USDC, destination_muxed_id: '77', destination_muxed_id_type: 'uint64' },
      { type: 'mint', to: DEPOSIT, amount: '0.0000003', asset_type: 'credit_alphanum4', asset_code: 'USDC', asset_issuer: profile.issuers.USDC },
      { type: 'mint', to: DEPOSIT, amount: '0.0000004', asset_type: 'credit_alphanum4', asset_code: 'USDC', asset_issuer: profile.issuers.USDC },
    ]);
    // what the pipeline credits: each movement once, its payer the event's `from` (a mint's: the issuer)
    expect(read.records.flatMap((r) => movementsInto(r, DEPOSIT)).map((m) => [m.operationId, m.amount, m.from, m.toMuxedId])).toEqual([
      [`${read.records[0]!.id}-0`, 125_000_000n, WALLET, null], [`${read.records[1]!.id}-0`, 30_000_001n, WALLET, '18446744073709551615'],
      [`${read.records[2]!.id}-0`, 1n, WALLET, null], [`${read.records[3]!.id}-0`, 2n, WALLET, '77'],
      [`${read.records[4]!.id}-0`, 3n, profile.issuers.USDC, null], [`${read.records[5]!.id}-0`, 4n, profile.issuers.USDC, null],
    ]);
    // the follower's one watched-address lookup sees the receiver of each
    expect(read.records.flatMap(receiversOf)).toEqual(Array(6).fill(DEPOSIT));
    expect(read.records[0]!.transaction_hash).toBe(page[0]!.txHash);
  });
});

describe('the recorded pubnet corpus (protocol 27, meta v4)', () => {
  const corpus = JSON.parse(readFileSync(new URL('../fixtures/rpc/transactions.json', import.meta.url), 'utf8')) as {
    records: { txHash: string; envelopeXdr: string; resultXdr: string; resultMetaXdr: string }[];
  };
  const pubnet = resolveNetwork('pubnet', { passphrase: null, rpcUrl: RPC, horizonUrl: null, friendbotUrl: null, issuers: null, api: 'rpc' });
  const sacs = sacIndex(Object.values({ XLM: { code: 'XLM', issuer: null }, USDC: { code: 'USDC', issuer: pubnet.issuers.USDC } }), Networks.PUBLIC);

  it('classic payments\' CAP-67 transfer events come from the SAC ids Fundkit derives, and are not counted twice', () => {
    const events = corpus.records.flatMap((r) => transferEvents(r.resultMetaXdr));
    const usdc = events.filter((e) => sacs.get(e.contractId)?.code === 'USDC');
    const xlm = events.filter((e) => sacs.get(e.contractId)?.code === 'XLM');
    expect(usdc.length).toBeGreaterThan(0);
    expect(xlm.length).toBeGreaterThan(0);
    // real CAP-67 data maps: transaction 4460822e…'s native payment carries its text memo in
    // to_muxed_id (an ScString): that is not a muxed id (only a u64 is, and only invocations are read)
    expect(xlm.find((e) => e.amount === 4850880n)).toMatchObject({ to: 'GBXBIYGVHATBQOB3CT3PYRUAPM4N5OL3CU44TK32D7QYTKMWCC2EYEMY', toMuxedId: null });
    expect(StrKey.isValidContract([...sacs.keys()][0]!)).toBe(true);
    // no invocation in the corpus: every record is a classic operation's, read from the operation
    const records = corpus.records.flatMap((r, i) => paymentRecords({
      status: 'SUCCESS', ledger: 63800108 + i, applicationOrder: 1, feeBump: false, createdAt: 1785000000, ...r,
    } as RpcTransaction, Networks.PUBLIC, sacs));
    expect(records.filter((r) => r.type === 'invoke_host_function')).toEqual([]);
  });
});
