/**
 * The payment flow with the server on FUNDKIT_STELLAR=custom, reaching a separate `fundkit sandbox`
 * process over HTTP only (at 1 s ledgers), as it would reach testnet: the treasury funded by the network's
 * friendbot, the pool filled, intents paid by stellar-sdk wallets, settled on chain to the
 * settlement address, an overpayment refunded on chain. Observed by the ledger follower.
 */
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, KEYS, OPERATOR_KEY, type TestServer } from '../helpers/server.js';
import { FAST_ENV, waitFor } from '../pipeline/helpers.js';
import { bootstrapWith, customEnv, startSandboxProcess, Wallets, type SandboxProcess } from './helpers.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const key = KEYS.alphaSecretTest;

// the two APIs side by side, each against its own `fundkit sandbox` (their tests in order): most of
// this suite is waiting for 1 s ledgers, and the two share nothing
describe.concurrent.each(['rpc', 'horizon'] as const)('the payment flow over the wire (%s)', (api) => {
  let network: SandboxProcess;
  let t: TestServer;
  let wallets: Wallets;
  const settlement = Keypair.random();

  beforeAll(async () => {
    // the network: `fundkit sandbox` at 1 s ledgers, a process of its own
    network = await startSandboxProcess(mkdtempSync(join(tmpdir(), 'fundkit-flow-')), 1);
    wallets = new Wallets(network.url);
    await wallets.fund(settlement, '0');
    t = await startTestServer({
      env: { ...FAST_ENV, ...customEnv(network.url, api), FUNDKIT_DEPOSIT_POOL_SIZE: '2', FUNDKIT_TREASURY_CHANNELS: '2' },
      bootstrap: bootstrapWith(settlement.publicKey()),
    });
    // the operator funds the treasury the server generated (fundkit treasury --fund does this)
    await wallets.fund(Keypair.fromPublicKey(t.server.services.pipeline.pipeline.stellar!.treasury.publicKey()) as Keypair);
    t.server.services.pipeline.pipeline.nudgeJob('deposit-pool');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await network?.stop();
  });

  const intentOf = async (id: string) => (await t.request('GET', `/v1/funding-intents/${id}`, { key })).body;

  it.sequential('fills the pool over the network, then a wallet\'s payment is CREDITED and settled on chain', async () => {
    const created = await t.request('POST', '/v1/funding-intents', { key, body: { amount: '25', asset: 'USDC' } });
    expect(created.status).toBe(201);
    const intent = await waitFor(() => intentOf(created.body.id), (i) => i.status === 'AWAITING_PAYMENT', 30_000);
    const address = intent.deposit_account.address as string;
    // the deposit account is on the network, with its trustline
    expect(await wallets.usdc(address)).toBe('0.0000000');
    const payer = Keypair.random();
    await wallets.fund(payer, '100');
    const hash = await wallets.pay(payer, address, '25');
    const credited = await waitFor(() => intentOf(intent.id), (i) => i.status === 'CREDITED', 30_000);
    expect(credited.received_amount).toBe('25.0000000');
    const payments = (await t.request('GET', `/v1/funding-intents/${intent.id}/payments`, { key })).body.data;
    expect(payments).toMatchObject([{ transaction_hash: hash, payer_address: payer.publicKey(), amount: '25.0000000', status: 'CONFIRMED' }]);
    // settled on chain: the settlement address holds the 25 USDC
    expect(await wallets.usdc(settlement.publicKey())).toBe('25.0000000');
    const settlements = (await t.request('GET', `/v1/settlements?funding_intent_id=${intent.id}`, { key })).body.data;
    expect(settlements[0]).toMatchObject({ status: 'CONFIRMED' });
  }, 90_000);

  it.sequential('refunds an overpayment on chain, back to the payer', async () => {
    const created = await t.request('POST', '/v1/funding-intents', { key, body: { amount: '10', asset: 'USDC' } });
    const intent = await waitFor(() => intentOf(created.body.id), (i) => i.status === 'AWAITING_PAYMENT', 30_000);
    const payer = Keypair.random();
    await wallets.fund(payer, '100');
    await wallets.pay(payer, intent.deposit_account.address, '15');
    const credited = await waitFor(() => intentOf(intent.id), (i) => i.status === 'CREDITED', 30_000);
    // the surplus is the merchant's to refund: 5 USDC, back to the payer by default
    const asked = await t.request('POST', `/v1/funding-intents/${intent.id}/payments/${credited.payment.id}/refunds`, { key, body: { reason: 'OVERPAYMENT' } });
    expect(asked.status).toBe(201);
    const refund = await waitFor(async () => (await t.request('GET', `/v1/refunds/${asked.body.id}`, { key })).body, (r) => r.status === 'COMPLETED', 30_000);
    expect(refund).toMatchObject({ reason: 'OVERPAYMENT', amount: '5.0000000', destination: { address: payer.publicKey() } });
    // the payer holds 100 − 15 + 5
    expect(await wallets.usdc(payer.publicKey())).toBe('90.0000000');
  }, 90_000);

  it.sequential('at rest reads the network at most 3 times a ledger, whatever the open intents, and keeps within a few ledgers of its tip', async () => {
    // open intents: their accounts are watched, and must cost no request
    for (let i = 0; i < 5; i += 1) expect((await t.request('POST', '/v1/funding-intents', { key, body: { amount: '1', asset: 'USDC' } })).status).toBe(201);
    await t.server.services.workers.drain();
    let byMethod: Record<string, number> = {};
    const requests = async () => {
      const text = await (await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${OPERATOR_KEY}` } })).text();
      const counts = Object.fromEntries([...text.matchAll(/^fundkit_network_requests_total\{method="([^"]+)"\} (\d+)/gm)].map((m) => [m[1]!, Number(m[2])]));
      byMethod = Object.fromEntries(Object.entries(counts).map(([method, n]) => [method, n - (byMethod[method] ?? 0)]));
      return Object.values(counts).reduce((sum, n) => sum + n, 0);
    };
    const tip = () => network.tip();
    const [before, from] = [await requests(), await tip()];
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    const [after, to] = [await requests(), await tip()];
    expect(to - from).toBeGreaterThanOrEqual(4);
    console.log(`${api}: ${after - before} requests to the network over ${to - from} ledgers at rest (${((after - before) / (to - from)).toFixed(2)} a ledger): ${JSON.stringify(byMethod)}`);
    // the readiness probe and the treasury's metrics read count too; the follower's reads dominate
    // it did read: a ledger it followed is a ledger it asked for
    expect(after - before).toBeGreaterThan(0);
    expect((after - before) / (to - from)).toBeLessThanOrEqual(3);
    const follower = t.server.services.pipeline.pipeline.follower!;
    expect(to - follower.caughtUpLedger!).toBeLessThanOrEqual(2);
  }, 30_000);
});
