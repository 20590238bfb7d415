/**
 * `fundkit-sandbox` as a child process: one port in stellar/quickstart's layout (Horizon at /,
 * RPC at /rpc, friendbot at /friendbot), its own SQLite file, a banner with the URLs, the
 * passphrase and the assets; the real clients of @stellar/stellar-sdk against it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Asset, BASE_FEE, Horizon, Keypair, Operation, rpc, TransactionBuilder } from '@stellar/stellar-sdk';
import { SANDBOX_ASSETS } from '../../src/index.js';

const ROOT = join(import.meta.dirname, '..', '..', '..', '..');
// the bin's CLI from source (tsx resolves at the repository root), as `fundkit-sandbox` runs it from dist
const ENTRY = "import('./packages/sandbox/src/cli.ts').then(async (m) => { process.exitCode = await m.runSandboxCli(process.argv.slice(1)); })";

let child: ChildProcess;
let out = '';
let dir: string;
let readyMs: number;

function field(label: string): string {
  const m = new RegExp(`^\\s*${label}\\s+(\\S.*)$`, 'm').exec(out);
  if (!m) throw new Error(`no ${label} in the banner:\n${out}`);
  return m[1]!.trim();
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fundkit-sandbox-'));
  const started = performance.now();
  child = spawn(process.execPath, ['--import', 'tsx', '-e', ENTRY, '--', '--port', '0', '--db', join(dir, 'net.db')], {
    cwd: ROOT, env: { ...process.env, FUNDKIT_DATA_DIR: dir }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr!.on('data', (chunk: Buffer) => { out += chunk.toString(); });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('ready in')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`fundkit-sandbox exited (${code}) before its banner:\n${out}`)));
  });
  readyMs = performance.now() - started;
}, 60_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('fundkit-sandbox (a child process)', () => {
  it('is ready quickly and its banner prints the URLs, the passphrase and each asset as CODE:ISSUER', () => {
    process.stdout.write(`fundkit-sandbox: spawn to banner ${Math.round(readyMs)} ms\n`);
    expect(readyMs).toBeLessThan(20_000);
    const horizon = field('Horizon');
    expect(horizon).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(field('Stellar RPC')).toBe(`${horizon}rpc`);
    expect(field('Friendbot')).toContain(`${horizon}friendbot`);
    expect(field('Passphrase')).toBe('Standalone Network ; February 2017');
    expect(out).toContain(`USDC:${SANDBOX_ASSETS.USDC.issuer}`);
    expect(out).toContain(`EURC:${SANDBOX_ASSETS.EURC.issuer}`);
    expect(existsSync(join(dir, 'net.db'))).toBe(true);
  });

  it('serves Horizon at /, friendbot at /friendbot and the RPC at /rpc on its one port', async () => {
    const base = field('Horizon').replace(/\/$/, '');
    const horizon = new Horizon.Server(base, { allowHttp: true });
    const server = new rpc.Server(`${base}/rpc`, { allowHttp: true });
    expect((await server.getNetwork()).passphrase).toBe(field('Passphrase'));
    expect((await horizon.root()).network_passphrase).toBe(field('Passphrase'));

    const alice = Keypair.random();
    const bob = Keypair.random();
    await horizon.friendbot(alice.publicKey()).call(); // GET {horizon}/friendbot?addr=…
    expect((await fetch(`${base}/friendbot?addr=${bob.publicKey()}`)).status).toBe(200);

    const tx = new TransactionBuilder(await server.getAccount(alice.publicKey()), { fee: BASE_FEE, networkPassphrase: field('Passphrase') })
      .addOperation(Operation.payment({ destination: bob.publicKey(), asset: Asset.native(), amount: '3' })).setTimeout(60).build();
    tx.sign(alice);
    expect((await server.sendTransaction(tx)).status).toBe('PENDING');
    await expect.poll(async () => (await server.getTransaction(Buffer.from(tx.hash()).toString('hex'))).status).toBe('SUCCESS');
    const bobs = await horizon.loadAccount(bob.publicKey());
    expect(bobs.balances.find((b) => b.asset_type === 'native')!.balance).toBe('10003.0000000');
    const seen = await horizon.transactions().transaction(Buffer.from(tx.hash()).toString('hex')).call();
    expect(seen.successful).toBe(true);
  });

  it('stops on SIGTERM with exit code 0', async () => {
    child.kill('SIGTERM');
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
  });
});
