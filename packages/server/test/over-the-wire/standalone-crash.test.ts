/**
 * The operator's path end to end, each part its own process: `fundkit sandbox` at 1 s ledgers (a
 * network of its own, quickstart's layout), `fundkit treasury --fund` against it, then the server
 * on FUNDKIT_STELLAR=custom over Stellar RPC. A burst of wallet payments (half classic payments,
 * half Soroban `transfer`s of the USDC contract), the server killed with SIGKILL while they land,
 * restarted: every intent CREDITED once, the settlement address paid exactly once per intent on chain.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_ASSETS, SANDBOX_PASSPHRASE } from '@fundkit/sandbox';
import { freePort, kill, startChild, type Child } from '../crash/child.js';
import { KEYS } from '../helpers/server.js';
import { bootstrapWith, fundkitCli, SorobanWallet, startSandboxProcess, Wallets, type SandboxProcess } from './helpers.js';

const key = KEYS.alphaSecretTest;
const BURST = 8;

async function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const child = fundkitCli(args, env);
  let out = '';
  child.stdout!.on('data', (c: Buffer) => { out += c.toString(); });
  child.stderr!.on('data', (c: Buffer) => { out += c.toString(); });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, out };
}

describe('a separate fundkit sandbox, fundkit treasury --fund, and a server killed mid-burst (Stellar RPC)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fundkit-standalone-'));
  let network: SandboxProcess;
  let server: Child;
  let env: Record<string, string>;
  let port: number;
  let wallets: Wallets;
  const settlement = Keypair.random();

  beforeAll(async () => {
    network = await startSandboxProcess(dir, 1);
    const { url } = network;
    wallets = new Wallets({ horizonUrl: url, friendbotUrl: `${url}/friendbot` });
    await wallets.fund(settlement, '0');
    writeFileSync(join(dir, 'bootstrap.json'), JSON.stringify(bootstrapWith(settlement.publicKey())));
    env = {
      FUNDKIT_STELLAR: 'custom', FUNDKIT_NETWORK_PASSPHRASE: SANDBOX_PASSPHRASE, FUNDKIT_RPC_URL: `${url}/rpc`, FUNDKIT_HORIZON_URL: url,
      FUNDKIT_FRIENDBOT_URL: `${url}/friendbot`, FUNDKIT_ASSETS: `USDC:${SANDBOX_ASSETS.USDC.issuer},EURC:${SANDBOX_ASSETS.EURC.issuer}`,
      FUNDKIT_DB: join(dir, 'fundkit.db'), FUNDKIT_DATA_DIR: dir, FUNDKIT_MASTER_KEY: 'ab'.repeat(32), FUNDKIT_BOOTSTRAP: join(dir, 'bootstrap.json'),
      FUNDKIT_DEPOSIT_POOL_SIZE: String(BURST), FUNDKIT_TREASURY_CHANNELS: '2', FUNDKIT_WORKER_INTERVAL_MS: '50', FUNDKIT_WORKER_BACKOFF_MS: '50', LOG_LEVEL: 'warn',
    };
    port = await freePort();
  }, 120_000);
  afterAll(async () => {
    if (server) await kill(server, 'SIGTERM');
    await network?.stop();
  });

  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: await res.json() as any };
  };
  const until = async <T>(read: () => Promise<T>, done: (v: T) => boolean, ms: number): Promise<T> => {
    const end = Date.now() + ms;
    for (;;) {
      const v = await read();
      if (done(v)) return v;
      if (Date.now() > end) throw new Error(`not reached: ${JSON.stringify(v).slice(0, 500)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  it('fundkit treasury says what is missing (exit 1), --fund funds it from the network\'s friendbot (exit 0)', async () => {
    const before = await run(['treasury'], env);
    expect(before.code, before.out).toBe(1);
    expect(before.out).toMatch(/MISSING/);
    const funded = await run(['treasury', '--fund'], env);
    expect(funded.code, funded.out).toBe(0);
    expect(funded.out).toMatch(/Nothing missing/);
  }, 120_000);

  it('pays a burst (payments and transfers) while the server is killed and restarted: every intent CREDITED once, settled once on chain', async () => {
    server = await startChild(env, port);
    const created = [];
    for (let i = 0; i < BURST; i++) created.push((await api('POST', '/v1/funding-intents', { amount: '3', asset: 'USDC' })).body);
    const intents = await Promise.all(created.map((c) => until(() => api('GET', `/v1/funding-intents/${c.id}`).then((r) => r.body),
      (i) => i.status === 'AWAITING_PAYMENT', 60_000)));
    const payers = intents.map(() => Keypair.random());
    await wallets.fundMany(payers, '10');
    // every other payer pays by the contract's transfer, its own transaction's source
    const soroban = new SorobanWallet(`${network.url}/rpc`);
    const paying = intents.map((intent, i) => (i % 2 === 0 ? wallets.pay(payers[i]!, intent.deposit_account.address, '3')
      : soroban.transfer(payers[i]!, intent.deposit_account.address, '3')));
    // killed while the payments land and the pipeline observes them
    await new Promise((r) => setTimeout(r, 1500));
    await kill(server, 'SIGKILL');
    const hashes = await Promise.all(paying);
    server = await startChild(env, port);
    const credited = await Promise.all(intents.map((intent) => until(() => api('GET', `/v1/funding-intents/${intent.id}`).then((r) => r.body),
      (i) => i.status === 'CREDITED', 90_000)));
    for (const [i, intent] of credited.entries()) {
      expect(intent.received_amount).toBe('3.0000000');
      const payments = (await api('GET', `/v1/funding-intents/${intent.id}/payments`)).body.data;
      expect(payments.map((p: { transaction_hash: string }) => p.transaction_hash)).toEqual([hashes[i]]);
    }
    // the settlement address holds exactly what was settled: nothing paid twice
    expect(await wallets.usdc(settlement.publicKey())).toBe(`${3 * BURST}.0000000`);
  }, 240_000);
});
