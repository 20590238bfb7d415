/**
 * Muxed deposits with the server on FUNDKIT_STELLAR=custom against a separate `fundkit sandbox`
 * process (1 s ledgers), over Stellar RPC and over Horizon: the treasury onboards the collection
 * accounts (as `fundkit treasury --collections` does), a stellar-sdk wallet pays an intent's M…
 * address and the follower attributes it by the muxed id each API reports (RPC: from the
 * envelope; Horizon: `to_muxed_id`); settled and the overpayment refunded on chain; a plain G…
 * payment to the collection account is recorded as unattributed.
 */
import { Keypair } from '@stellar/stellar-sdk';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, OPERATOR_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { FAST_ENV, waitFor } from '../pipeline/helpers.js';
import { bootstrapWith, customEnv, startSandboxProcess, Wallets, type SandboxProcess } from './helpers.js';

const key = KEYS.alphaSecretTest;

describe.concurrent.each(['rpc', 'horizon'] as const)('muxed deposits over the wire (%s)', (api) => {
  let network: SandboxProcess;
  let t: TestServer;
  let wallets: Wallets;
  const settlement = Keypair.random();

  beforeAll(async () => {
    network = await startSandboxProcess(mkdtempSync(join(tmpdir(), 'fundkit-muxed-')), 1);
    wallets = new Wallets(network.url);
    await wallets.fund(settlement, '0');
    t = await startTestServer({
      env: { ...FAST_ENV, ...customEnv(network.url, api), FUNDKIT_DEPOSIT_POOL_SIZE: '0', FUNDKIT_TREASURY_CHANNELS: '2' },
      bootstrap: bootstrapWith(settlement.publicKey()),
    });
    const { pipeline } = t.server.services.pipeline;
    await wallets.fund(Keypair.fromPublicKey(pipeline.stellar!.treasury.publicKey()) as Keypair);
    // before onboarding, a muxed create says what is missing
    const early = await t.request('POST', '/v1/funding-intents', { key, body: { amount: '1', asset: 'USDC', deposit_type: 'muxed' } });
    expect(early.status).toBe(409);
    expect(early.body.error.message).toContain('fundkit treasury');
    await pipeline.onboardCollections();
  }, 90_000);
  afterAll(async () => {
    await t?.close();
    await network?.stop();
  });

  const intentOf = async (id: string) => (await t.request('GET', `/v1/funding-intents/${id}`, { key })).body;

  it.sequential('a wallet pays the M… address: CREDITED, settled from the collection account, the overpayment refunded', async () => {
    const created = await t.request('POST', '/v1/funding-intents', { key, body: { amount: '10', asset: 'USDC', deposit_type: 'muxed' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'AWAITING_PAYMENT', funding_instructions: { deposit: { type: 'muxed' } } });
    const payer = Keypair.random();
    await wallets.fund(payer, '100');
    const hash = await wallets.pay(payer, created.body.funding_instructions.deposit.address, '15');
    const credited = await waitFor(() => intentOf(created.body.id), (i) => i.status === 'CREDITED', 30_000);
    expect(credited.payment).toMatchObject({ transaction_hash: hash, payer_address: payer.publicKey(), amount: '15.0000000', status: 'CONFIRMED' });
    expect(await wallets.usdc(settlement.publicKey())).toBe('10.0000000');
    const asked = await t.request('POST', `/v1/funding-intents/${created.body.id}/payments/${credited.payment.id}/refunds`, { key, body: { reason: 'OVERPAYMENT' } });
    expect(asked.status).toBe(201);
    await waitFor(async () => (await t.request('GET', `/v1/refunds/${asked.body.id}`, { key })).body, (r) => r.status === 'COMPLETED', 30_000);
    expect(await wallets.usdc(payer.publicKey())).toBe('90.0000000');
    // the collection account keeps nothing of it
    expect(await wallets.usdc(created.body.deposit_account.collection_address)).toBe('0.0000000');
  }, 90_000);

  it.sequential('a plain payment to the collection account is recorded as unattributed', async () => {
    const created = (await t.request('POST', '/v1/funding-intents', { key, body: { amount: '10', asset: 'USDC', deposit_type: 'muxed' } })).body;
    const payer = Keypair.random();
    await wallets.fund(payer, '10');
    const hash = await wallets.pay(payer, created.deposit_account.collection_address, '2');
    const rows = await waitFor(async () => (await t.request('GET', '/v1/platform/unattributed_payments', { key: OPERATOR_KEY })).body.data as any[],
      (data) => data.some((r) => r.transaction_hash === hash), 30_000);
    expect(rows.find((r) => r.transaction_hash === hash)).toMatchObject({ amount: '2.0000000', to_muxed_id: null, status: 'RECORDED' });
  }, 60_000);
});
