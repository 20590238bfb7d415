/**
 * Any network: testnet and pubnet presets, `custom` with its own passphrase, URLs and issuers,
 * the API chosen (Stellar RPC by default where an RPC URL is known), and the start-up check
 * against the network itself (passphrase, issuers) with errors that say what to fix.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Keypair, Networks } from '@stellar/stellar-sdk';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, createServer, loadConfig, type FundkitServer } from '../../src/index.js';
import { HorizonNetwork } from '../../src/stellar/horizon/index.js';
import { RpcNetwork } from '../../src/stellar/rpc/index.js';

const USDC = Keypair.random().publicKey();
const EURC = Keypair.random().publicKey();
const CUSTOM = {
  FUNDKIT_STELLAR: 'custom', FUNDKIT_NETWORK_PASSPHRASE: 'Standalone Network ; February 2017', FUNDKIT_ASSETS: `USDC:${USDC},EURC:${EURC}`,
};

describe('the network settings', () => {
  it('testnet speaks Stellar RPC to SDF\'s testnet RPC by default, pubnet Horizon (SDF runs no public pubnet RPC)', () => {
    expect(loadConfig({ FUNDKIT_STELLAR: 'testnet' }).network).toMatchObject({
      kind: 'testnet', api: 'rpc', rpcUrl: 'https://soroban-testnet.stellar.org', horizonUrl: 'https://horizon-testnet.stellar.org', friendbotUrl: 'https://friendbot.stellar.org',
      passphrase: Networks.TESTNET,
    });
    expect(loadConfig({ FUNDKIT_STELLAR: 'pubnet' }).network).toMatchObject({ kind: 'pubnet', api: 'horizon', rpcUrl: null, friendbotUrl: null });
    expect(loadConfig({ FUNDKIT_STELLAR: 'pubnet', FUNDKIT_RPC_URL: 'https://rpc.example.com/' }).network).toMatchObject({ api: 'rpc', rpcUrl: 'https://rpc.example.com' });
    // an operator who names only their own Horizon means Horizon
    expect(loadConfig({ FUNDKIT_STELLAR: 'testnet', FUNDKIT_HORIZON_URL: 'http://h.local:8000' }).network).toMatchObject({ api: 'horizon', horizonUrl: 'http://h.local:8000' });
    expect(loadConfig({ FUNDKIT_STELLAR: 'testnet', FUNDKIT_STELLAR_API: 'horizon' }).network).toMatchObject({ api: 'horizon' });
    expect(loadConfig({}).network).toBeNull();
  });

  it('custom takes its passphrase, URLs and issuers; XLM is always there', () => {
    expect(loadConfig({ ...CUSTOM, FUNDKIT_RPC_URL: 'http://localhost:8000/rpc', FUNDKIT_FRIENDBOT_URL: 'http://localhost:8000/friendbot' }).network).toEqual({
      kind: 'custom', passphrase: 'Standalone Network ; February 2017', rpcUrl: 'http://localhost:8000/rpc', horizonUrl: null,
      friendbotUrl: 'http://localhost:8000/friendbot', issuers: { USDC, EURC }, api: 'rpc',
    });
  });

  it.each([
    [{ ...CUSTOM, FUNDKIT_RPC_URL: 'http://x', FUNDKIT_NETWORK_PASSPHRASE: '' }, /needs FUNDKIT_NETWORK_PASSPHRASE/],
    [{ ...CUSTOM }, /needs FUNDKIT_RPC_URL or FUNDKIT_HORIZON_URL/],
    [{ ...CUSTOM, FUNDKIT_RPC_URL: 'http://x', FUNDKIT_ASSETS: `USDC:${USDC}` }, /FUNDKIT_ASSETS with the USDC and EURC issuers/],
    [{ ...CUSTOM, FUNDKIT_RPC_URL: 'http://x', FUNDKIT_ASSETS: 'USDC:nope' }, /the issuer of USDC must be an account id/],
    [{ ...CUSTOM, FUNDKIT_RPC_URL: 'http://x', FUNDKIT_ASSETS: `BTC:${USDC}` }, /names USDC and EURC as CODE:ISSUER/],
    [{ ...CUSTOM, FUNDKIT_RPC_URL: 'http://x', FUNDKIT_NETWORK_PASSPHRASE: Networks.PUBLIC }, /use FUNDKIT_STELLAR=pubnet/],
    [{ FUNDKIT_STELLAR: 'testnet', FUNDKIT_NETWORK_PASSPHRASE: 'Other' }, /for another network use FUNDKIT_STELLAR=custom/],
    [{ FUNDKIT_STELLAR: 'pubnet', FUNDKIT_STELLAR_API: 'rpc' }, /FUNDKIT_STELLAR_API=rpc needs FUNDKIT_RPC_URL/],
    [{ FUNDKIT_STELLAR: 'mainnet' }, /FUNDKIT_STELLAR must be sandbox, testnet, pubnet or custom/],
    [{ FUNDKIT_STELLAR: 'testnet', FUNDKIT_RPC_URL: 'ftp://x' }, /FUNDKIT_RPC_URL must be an http\(s\) URL/],
  ])('refuses %o with what to fix', (env, pattern) => {
    expect(() => loadConfig(env as Record<string, string>)).toThrow(ConfigError);
    expect(() => loadConfig(env as Record<string, string>)).toThrow(pattern);
  });
});

/** A Horizon that says its passphrase at its root, and knows only the accounts it is given. */
async function horizonOf(passphrase: string, accounts: string[], history = { elder: 1 }): Promise<{ url: string; server: Server }> {
  const server = createHttpServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/hal+json', 'latest-ledger': '100' }).end(JSON.stringify(body));
    if (path === '/') return json(200, { network_passphrase: passphrase, history_latest_ledger: 100, history_elder_ledger: history.elder, core_latest_ledger: 100 });
    if (path === '/payments') return json(200, { _embedded: { records: [] }, _links: {} });
    const id = /^\/accounts\/(G[A-Z2-7]{55})$/.exec(path)?.[1];
    if (id && accounts.includes(id)) {
      return json(200, { id, account_id: id, sequence: '1', subentry_count: 0, balances: [{ balance: '10.0000000', asset_type: 'native' }], thresholds: {}, flags: {}, signers: [] });
    }
    return json(404, { type: 'https://stellar.org/horizon-errors/not_found', title: 'Resource Missing', status: 404 });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('the start-up check against the network', () => {
  const silent = pino({ level: 'silent' });
  let running: FundkitServer | null = null;
  let horizon: Server | null = null;
  afterEach(async () => {
    await running?.close();
    running = null;
    horizon?.closeAllConnections();
    horizon?.close();
  });
  const start = (env: Record<string, string>) => createServer({ env: { FUNDKIT_DB: ':memory:', FUNDKIT_MASTER_KEY: 'a'.repeat(64), FUNDKIT_DEPOSIT_POOL_SIZE: '0', ...env }, logger: silent });

  it('starts on a custom network whose Horizon serves its passphrase and knows its issuers', async () => {
    const h = await horizonOf(CUSTOM.FUNDKIT_NETWORK_PASSPHRASE, [USDC, EURC]);
    horizon = h.server;
    running = await start({ ...CUSTOM, FUNDKIT_HORIZON_URL: h.url });
    const network = running.services.pipeline.pipeline.stellar!.network;
    expect(network).toBeInstanceOf(HorizonNetwork);
    expect(network).toMatchObject({ kind: 'custom', passphrase: CUSTOM.FUNDKIT_NETWORK_PASSPHRASE, assets: { USDC: { issuer: USDC }, EURC: { issuer: EURC } } });
    // the API's assets are the custom network's
    const usdc = running.services.assets;
    expect((await usdc.get('test', 'USDC'))).toMatchObject({ stellar_network: 'custom', issuer: USDC, stellar_asset: `USDC:${USDC}` });
  });

  it('refuses a Horizon of another network, naming both passphrases', async () => {
    const h = await horizonOf(Networks.TESTNET, [USDC, EURC]);
    horizon = h.server;
    const error = await start({ ...CUSTOM, FUNDKIT_HORIZON_URL: h.url }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/serves the network "Test SDF Network ; September 2015", not the configured "Standalone Network ; February 2017"/);
  });

  it('refuses an issuer the network does not have', async () => {
    const h = await horizonOf(CUSTOM.FUNDKIT_NETWORK_PASSPHRASE, [USDC]);
    horizon = h.server;
    const error = await start({ ...CUSTOM, FUNDKIT_HORIZON_URL: h.url }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(`the EURC issuer ${EURC} does not exist on custom (Horizon at ${h.url}): fix FUNDKIT_ASSETS`);
  });

  // the follower stopping on a gap or a network behind its cursor: test/pipeline/follower.test.ts, on both engines

  it('starts while the network does not answer (readiness says so), over RPC', async () => {
    running = await start({ ...CUSTOM, FUNDKIT_RPC_URL: 'http://127.0.0.1:9/rpc' });
    expect(running.services.pipeline.pipeline.stellar!.network).toBeInstanceOf(RpcNetwork);
  });
});
