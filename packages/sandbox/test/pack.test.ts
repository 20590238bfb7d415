/**
 * @fundkit/sandbox as a user gets it: its packed tarball installed into an empty folder with only
 * its declared dependencies (`pnpm add --offline`, from the machine's pnpm store: no network, and
 * under a second), its `fundkit-sandbox` bin started there, and stellar-sdk's Horizon.Server and
 * rpc.Server making an account, a USDC trustline and a payment, read back. Packs the build:
 * `pnpm build` first (as `pnpm test` does).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Asset, BASE_FEE, Horizon, Keypair, Operation, rpc, TransactionBuilder, type xdr } from '@stellar/stellar-sdk';

const PACKAGE = join(import.meta.dirname, '..');
const USDC_ISSUER = 'GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5';

let dir: string;
let child: ChildProcess | undefined;
let exited: Promise<number | null>;
let urls: { horizon: string; rpc: string; friendbot: string; passphrase: string };

function run(command: string, args: string[], cwd: string): string {
  const env = { ...process.env };
  // should the store lack better-sqlite3's build, it compiles against the machine's headers (MACHINE.md)
  if (!env.npm_config_nodedir && existsSync('/usr/include/node/node.h')) env.npm_config_nodedir = '/usr';
  const out = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: 240_000 });
  if (out.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${out.status}):\n${out.stdout}\n${out.stderr}`);
  return out.stdout;
}

beforeAll(async () => {
  expect(existsSync(join(PACKAGE, 'dist/index.js')), 'packages/sandbox/dist: run pnpm build').toBe(true);
  dir = mkdtempSync(join(tmpdir(), 'fundkit-sandbox-pack-'));
  run('pnpm', ['pack', '--pack-destination', dir], PACKAGE);
  const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'))!;
  writeFileSync(join(dir, 'package.json'), '{ "name": "probe", "private": true, "type": "module" }\n');
  // its own workspace root (so no parent workspace is found), allowed to build better-sqlite3
  writeFileSync(join(dir, 'pnpm-workspace.yaml'), 'allowBuilds:\n  better-sqlite3: true\n');
  run('pnpm', ['add', '--offline', `./${tarball}`], dir);

  const bin = join(dir, 'node_modules/.bin/fundkit-sandbox');
  child = spawn(bin, ['--port', '0', '--db', ':memory:', '--json'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  exited = new Promise((resolve) => child!.once('exit', (code) => resolve(code)));
  let out = '';
  child.stderr!.on('data', (chunk: Buffer) => { out += chunk.toString(); });
  urls = await new Promise((resolve, reject) => {
    child!.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line && out.includes('\n')) resolve(JSON.parse(line));
    });
    void exited.then((code) => reject(new Error(`fundkit-sandbox exited (${code}) before it was ready:\n${out}`)));
  });
}, 300_000);

afterAll(async () => {
  child?.kill('SIGTERM');
  if (child) await exited;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the packed @fundkit/sandbox, installed with its own dependencies only', () => {
  it('installs only what it declares', () => {
    const top = readdirSync(join(dir, 'node_modules')).filter((name) => !name.startsWith('.'));
    expect(top).toEqual(['@fundkit']);
    expect(readdirSync(join(dir, 'node_modules/@fundkit'))).toEqual(['sandbox']);
  });

  it('serves Horizon, Stellar RPC and friendbot to stellar-sdk: an account made, USDC trusted, paid and read back', async () => {
    const horizon = new Horizon.Server(urls.horizon, { allowHttp: true });
    const server = new rpc.Server(urls.rpc, { allowHttp: true });
    expect((await server.getNetwork()).passphrase).toBe(urls.passphrase);
    const usdc = new Asset('USDC', USDC_ISSUER);
    const build = async (source: Keypair, ...ops: xdr.Operation[]) => {
      const builder = new TransactionBuilder(await server.getAccount(source.publicKey()), { fee: BASE_FEE, networkPassphrase: urls.passphrase });
      for (const op of ops) builder.addOperation(op);
      const tx = builder.setTimeout(60).build();
      tx.sign(source);
      return tx;
    };

    const alice = Keypair.random();
    const bob = Keypair.random();
    expect((await fetch(`${urls.friendbot}?addr=${alice.publicKey()}`)).ok).toBe(true);
    // an account made by a transaction (Horizon), then its trustline (Stellar RPC)
    await horizon.submitTransaction(await build(alice, Operation.createAccount({ destination: bob.publicKey(), startingBalance: '5' }),
      Operation.changeTrust({ asset: usdc })));
    const trust = await server.sendTransaction(await build(bob, Operation.changeTrust({ asset: usdc })));
    expect(trust.status).toBe('PENDING');
    expect((await server.pollTransaction(trust.hash)).status).toBe('SUCCESS');
    expect((await fetch(`${urls.friendbot}?addr=${alice.publicKey()}&asset=USDC`)).ok).toBe(true);

    const payment = await server.sendTransaction(await build(alice, Operation.payment({ destination: bob.publicKey(), asset: usdc, amount: '12.5' })));
    const done = await server.pollTransaction(payment.hash);
    expect(done.status).toBe('SUCCESS');

    const [record] = (await horizon.payments().forAccount(bob.publicKey()).order('desc').limit(1).call()).records;
    expect(record).toMatchObject({ type: 'payment', from: alice.publicKey(), to: bob.publicKey(), asset_code: 'USDC', amount: '12.5000000', transaction_hash: payment.hash });
    const balance = (await horizon.loadAccount(bob.publicKey())).balances.find((b) => 'asset_code' in b && b.asset_code === 'USDC');
    expect(balance?.balance).toBe('12.5000000');
  });

  it('stops on SIGTERM with exit code 0', async () => {
    child!.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
