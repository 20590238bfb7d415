/**
 * Money from a contract account, on RECORDED pubnet data (fixtures/recorded-ledgers/SOURCES.md):
 * ledger 63092990 as stellar-core closed it, served by msw as Stellar RPC's getTransactions lists
 * it, read by the RPC network adapter the follower uses. A swap router (a contract, C…) paid an
 * account 43.4109811 USDC through the USDC Stellar Asset Contract: watched, that account is
 * credited exactly that, its payer the router. A classic payment's MEMO_ID, which CAP-67 repeats
 * as the event's `to_muxed_id`, stays a memo: only a muxed destination is a muxed id.
 */
import { Asset, Networks } from '@stellar/stellar-sdk';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiversOf } from '../../src/pipeline/follower.js';
import { movementsInto } from '../../src/pipeline/records.js';
import { resolveNetwork } from '../../src/stellar/networks.js';
import { createRpcNetwork, type RpcTransaction } from '../../src/stellar/rpc/index.js';
import { transferEvents } from '../../src/stellar/rpc/xdr-read.js';
import { LEDGER_63092990, ledger63092990 } from '../fixtures/recorded-ledgers/pubnet-63092990.js';

const RPC = 'http://rpc.test/rpc';
const pubnet = resolveNetwork('pubnet', { passphrase: null, rpcUrl: RPC, horizonUrl: null, friendbotUrl: null, issuers: null, api: 'rpc' });
const { routerSwap, memoIdPayment } = LEDGER_63092990;
const ledger = ledger63092990();
const page: RpcTransaction[] = [memoIdPayment.hash, routerSwap.hash].map((hash) => ledger.transaction(hash));

const server = setupServer(http.post(RPC, async ({ request }) => {
  const call = await request.json() as { method: string; params: { startLedger?: number } };
  if (call.method !== 'getTransactions' || call.params.startLedger !== LEDGER_63092990.sequence) {
    return HttpResponse.json({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: `unexpected ${call.method}` } });
  }
  // the page around the recorded transactions is this test's: one ledger, nothing after it
  return HttpResponse.json({ jsonrpc: '2.0', id: 1, result: {
    transactions: page, latestLedger: LEDGER_63092990.sequence, latestLedgerCloseTimestamp: page[0]!.createdAt,
    oldestLedger: LEDGER_63092990.sequence - 100, oldestLedgerCloseTimestamp: Number(page[0]!.createdAt) - 500, cursor: '1',
  } });
}));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

const json = (value: unknown) => JSON.parse(JSON.stringify(value, (_k, v) => typeof v === 'bigint' ? v.toString() : v));

describe('recorded pubnet ledger 63092990', () => {
  it('is the ledger pubnet closed: the file as copied, its header hashing to the recorded ledger hash', () => {
    expect(ledger.fileSha256).toBe(LEDGER_63092990.sha256);
    expect(ledger.sequence).toBe(LEDGER_63092990.sequence);
    expect(ledger.computedHash).toBe(ledger.recordedHash);
    // found by the hash its envelope gives under pubnet's passphrase (ledger.ts), equal to the result pair's
    expect(page.map((t) => [t.txHash, t.status])).toEqual([[memoIdPayment.hash, 'SUCCESS'], [routerSwap.hash, 'SUCCESS']]);
  });

  it("a router contract's USDC SAC transfer to a watched account: credited exactly 43.4109811 USDC, its payer the contract", async () => {
    const read = await createRpcNetwork(pubnet).readLedgers(LEDGER_63092990.sequence, 1);
    expect(read.through).toBe(LEDGER_63092990.sequence);
    const swap = read.records.filter((r) => r.transaction_hash === routerSwap.hash);
    expect(swap.map((r) => r.type)).toEqual(['invoke_host_function']);
    // the follower's watched-address lookup sees the account among the invocation's receivers
    expect(swap.flatMap(receiversOf)).toContain(routerSwap.payee);
    const usdc = new Asset('USDC', pubnet.issuers.USDC);
    expect(json(swap.flatMap((r) => movementsInto(r, routerSwap.payee)))).toEqual([{
      // the operation's TOID and the movement's place among its four SAC transfers: XLM account → router → pair, USDC pair → router → account
      operationId: `${swap[0]!.id}-3`, asset: { code: 'USDC', issuer: usdc.getIssuer() }, stellarAsset: `USDC:${usdc.getIssuer()}`,
      amount: routerSwap.stroops.toString(), from: routerSwap.router, to: routerSwap.payee, toMuxedId: null, memoType: 'none', memo: null,
    }]);
    // the event came from the contract Fundkit derives for pubnet's USDC: the SAC check matches the real network
    const events = transferEvents(page[1]!.resultMetaXdr!).filter((e) => e.to === routerSwap.payee);
    expect(events.map((e) => [e.contractId, e.from, e.amount])).toEqual([[routerSwap.usdcSac, routerSwap.router, routerSwap.stroops]]);
    expect(usdc.contractId(Networks.PUBLIC)).toBe(routerSwap.usdcSac);
  });

  it("a classic payment's MEMO_ID, repeated by CAP-67 as the event's to_muxed_id, is read as a memo, not a muxed destination", async () => {
    const read = await createRpcNetwork(pubnet).readLedgers(LEDGER_63092990.sequence, 1);
    const payment = read.records.filter((r) => r.transaction_hash === memoIdPayment.hash);
    expect(payment.map((r) => r.type)).toEqual(['payment']);
    expect(json(payment.flatMap((r) => movementsInto(r, memoIdPayment.to)))).toEqual([expect.objectContaining({
      amount: memoIdPayment.stroops.toString(), from: memoIdPayment.from, stellarAsset: 'native',
      memoType: 'id', memo: memoIdPayment.memoId, toMuxedId: null,
    })]);
    // the event does carry it, as a u64: reading classic payments from their operation keeps it a memo
    expect(transferEvents(page[0]!.resultMetaXdr!).map((e) => [e.to, e.amount, e.toMuxedId]))
      .toEqual([[memoIdPayment.to, memoIdPayment.stroops, memoIdPayment.memoId]]);
  });
});
