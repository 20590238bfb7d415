/**
 * Money that arrives by a Soroban `transfer` of the asset's Stellar Asset Contract (how contract
 * wallets, relayers and x402-style payments pay), over the wire: the server on
 * FUNDKIT_STELLAR=custom reaching a separate `fundkit sandbox` process, as it would reach testnet.
 * The wallet is stellar-sdk's: the transfer is simulated and assembled with `prepareTransaction`,
 * the payer authorizes it by signing its auth entry with `authorizeEntry`, and a relayer (another
 * account) submits it and pays the fee. The follower credits the movement read from the
 * transaction's unified events (RPC) or from the operation's balance changes (Horizon).
 */
import { Keypair } from '@stellar/stellar-sdk';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, startTestServer, type TestServer } from '../helpers/server.js';
import { FAST_ENV, waitFor } from '../pipeline/helpers.js';
import { bootstrapWith, customEnv, SorobanWallet, startSandboxProcess, Wallets, type SandboxProcess } from './helpers.js';

const key = KEYS.alphaSecretTest;

describe.concurrent.each(['rpc', 'horizon'] as const)('an intent paid by a Soroban transfer (%s)', (api) => {
  let network: SandboxProcess;
  let t: TestServer;
  let wallets: Wallets;
  let soroban: SorobanWallet;
  const settlement = Keypair.random();
  const relayer = Keypair.random();

  beforeAll(async () => {
    network = await startSandboxProcess(mkdtempSync(join(tmpdir(), 'fundkit-sac-')), 1);
    wallets = new Wallets(network.url);
    await Promise.all([wallets.fund(settlement, '0'), wallets.fund(relayer)]);
    soroban = new SorobanWallet(`${network.url}/rpc`, relayer);
    t = await startTestServer({
      env: { ...FAST_ENV, ...customEnv(network.url, api), FUNDKIT_DEPOSIT_POOL_SIZE: '2', FUNDKIT_TREASURY_CHANNELS: '2' },
      bootstrap: bootstrapWith(settlement.publicKey()),
    });
    await wallets.fund(Keypair.fromPublicKey(t.server.services.pipeline.pipeline.stellar!.treasury.publicKey()) as Keypair);
    t.server.services.pipeline.pipeline.nudgeJob('deposit-pool');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await network?.stop();
  });

  const intentOf = async (id: string) => (await t.request('GET', `/v1/funding-intents/${id}`, { key })).body;
  const payable = async (amount: string) => {
    const created = await t.request('POST', '/v1/funding-intents', { key, body: { amount, asset: 'USDC' } });
    expect(created.status).toBe(201);
    return waitFor(() => intentOf(created.body.id), (i) => i.status === 'AWAITING_PAYMENT', 30_000);
  };

  it.sequential('credits the transfer once, with its payer, and settles it on chain', async () => {
    const intent = await payable('25');
    const payer = Keypair.random();
    await wallets.fund(payer, '100');
    const hash = await soroban.transfer(payer, intent.deposit_account.address, '25');
    const credited = await waitFor(() => intentOf(intent.id), (i) => i.status === 'CREDITED', 30_000);
    expect(credited.received_amount).toBe('25.0000000');
    const payments = (await t.request('GET', `/v1/funding-intents/${intent.id}/payments`, { key })).body.data;
    expect(payments).toMatchObject([{ transaction_hash: hash, payer_address: payer.publicKey(), amount: '25.0000000', status: 'CONFIRMED' }]);
    expect(await wallets.usdc(settlement.publicKey())).toBe('25.0000000');
    expect(await wallets.usdc(payer.publicKey())).toBe('75.0000000');
  }, 90_000);

  it.sequential('refunds an overpayment made by transfer on chain, back to the payer', async () => {
    const intent = await payable('10');
    const payer = Keypair.random();
    await wallets.fund(payer, '100');
    await soroban.transfer(payer, intent.deposit_account.address, '15');
    const credited = await waitFor(() => intentOf(intent.id), (i) => i.status === 'CREDITED', 30_000);
    const asked = await t.request('POST', `/v1/funding-intents/${intent.id}/payments/${credited.payment.id}/refunds`, { key, body: { reason: 'OVERPAYMENT' } });
    expect(asked.status).toBe(201);
    const refund = await waitFor(async () => (await t.request('GET', `/v1/refunds/${asked.body.id}`, { key })).body, (r) => r.status === 'COMPLETED', 30_000);
    expect(refund).toMatchObject({ amount: '5.0000000', destination: { address: payer.publicKey() } });
    expect(await wallets.usdc(payer.publicKey())).toBe('90.0000000');
  }, 90_000);
});
