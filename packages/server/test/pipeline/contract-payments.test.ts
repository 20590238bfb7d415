/**
 * A contract account's payment, read over Stellar RPC, credited on both engines: the Stellar
 * Asset Contract `transfer` from a C… wallet to an intent's deposit account (read from
 * getTransactions' meta by the RPC adapter, served by msw) is recorded once, with its exact
 * amount and its payer, and moves the intent; a lookalike `transfer` event from another contract
 * credits nothing. The invocations are CONSTRUCTED (test/fixtures/events/SOURCES.md).
 */
import { Asset, Networks } from '@stellar/stellar-sdk';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import type { CursorRepo } from '../../src/pipeline/cursor-repo.js';
import { LedgerFollower } from '../../src/pipeline/follower.js';
import { SANDBOX_ASSETS } from '@fundkit/sandbox';
import { resolveNetwork } from '../../src/stellar/networks.js';
import { createRpcNetwork } from '../../src/stellar/rpc/index.js';
import { IMPOSTOR, invokeTransaction, WALLET, type Movement } from '../fixtures/events/constructed.js';
import type { TestServer } from '../helpers/server.js';
import { createIntent, key, startPipelineServer, waitFor } from './helpers.js';

const RPC = 'http://rpc.test/rpc';
const PASSPHRASE = Networks.TESTNET;
const profile = resolveNetwork('testnet', { passphrase: null, rpcUrl: RPC, horizonUrl: null, friendbotUrl: null, issuers: null, api: 'rpc' });
const USDC = new Asset('USDC', profile.issuers.USDC);

let page: ReturnType<typeof invokeTransaction>[] = [];
const rpc = setupServer(http.post(RPC, () => HttpResponse.json({ jsonrpc: '2.0', id: 1, result: {
  transactions: page, latestLedger: 100, latestLedgerCloseTimestamp: 1785000100, oldestLedger: 1, oldestLedgerCloseTimestamp: 1784000000, cursor: '1',
} })));
// the test server's own requests (its sandbox) pass
beforeAll(() => rpc.listen({ onUnhandledRequest: 'bypass' }));
afterAll(() => rpc.close());

const move = (m: Partial<Movement> & { to: string }): Movement => ({ contract: USDC.contractId(PASSPHRASE), asset: USDC, from: WALLET, stroops: 125_000_000n, ...m });

describe('the pipeline credits a contract account\'s SAC transfer (read over RPC)', () => {
  let t: TestServer;
  beforeAll(async () => { t = await startPipelineServer(); });
  afterAll(() => t.close());

  it('once, with the exact amount and the C… payer; the lookalike event credits nothing', async () => {
    const intent = await createIntent(t, { amount: '12.50' });
    const deposit = intent.deposit_account.address as string;
    // the sandbox's assets are testnet's: the same USDC issuer
    expect(SANDBOX_ASSETS.USDC.issuer).toBe(profile.issuers.USDC);
    page = [
      invokeTransaction(move({ to: deposit }), { ledger: 100, order: 1, passphrase: PASSPHRASE }),
      invokeTransaction(move({ contract: IMPOSTOR, to: deposit, stroops: 999_000_000n }), { ledger: 100, order: 2, passphrase: PASSPHRASE, sequence: '200' }),
    ];
    // the ledger follower over Stellar RPC (msw), matching receivers against the server's watched
    // accounts, handing them to the server's observer; its cursor is the test's
    let cursor = 99;
    const follower = () => new LedgerFollower({
      network: createRpcNetwork(profile), networkName: 'sandbox', watch: t.server.services.pipeline.pipeline.repos.watch,
      cursors: { get: async () => cursor, init: async () => cursor, advance: async (_n: string, l: number) => { cursor = l; } } as unknown as CursorRepo,
      handle: (address, record) => t.server.services.pipeline.pipeline.observer!.handle(address, record), logger: pino({ level: 'silent' }), ledgerMs: 0, idleMs: 1000,
    });
    await follower().run();
    expect(cursor).toBe(100);
    // a replayed ledger (a crash before the cursor was saved) records nothing new
    cursor = 99;
    await follower().run();
    const read = await createRpcNetwork(profile).readLedgers(100, 10);
    const payments = await waitFor(async () => (await t.request('GET', `/v1/funding-intents/${intent.id}/payments`, { key })).body.data as any[], (p) => p.length > 0);
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({
      amount: '12.5000000', asset: 'USDC', payer_address: WALLET, destination_address: deposit, transaction_hash: page[0]!.txHash,
      operation_id: `${read.records[0]!.id}-0`,
    });
    // a refund to a contract takes no memo (an invocation carries none): refused before anything is recorded
    const memo = await t.request('POST', `/v1/funding-intents/${intent.id}/payments/${payments[0].id}/refunds`, {
      key, body: { reason: 'OVERPAYMENT', destination_memo: { type: 'text', value: 'x' } }, headers: { 'idempotency-key': `memo-${intent.id}` },
    });
    expect(memo.status).toBe(400);
    expect(memo.body.error).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(memo.body.error.message).toMatch(/contract \(C…\) destination/);
    const after = await waitFor(async () => (await t.request('GET', `/v1/funding-intents/${intent.id}`, { key })).body, (i) => i.status !== 'AWAITING_PAYMENT');
    expect(after.status).not.toBe('PARTIALLY_FUNDED');
  });
});
