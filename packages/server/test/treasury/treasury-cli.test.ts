import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { runCli, type CliIo } from '../../src/cli/index.js';
import { unfundedSandbox, type SandboxDatabase } from './helpers.js';

/** `fundkit treasury` through the CLI's entry point (runCli: argv in, exit code out), on sandbox databases. */
function cli(argv: string[], env: Record<string, string>, cwd = tmpdir()) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { stdout: (s) => void out.push(s), stderr: (s) => void err.push(s), env, cwd };
  const done = runCli(argv, io);
  return { done, stdout: () => out.join(''), stderr: () => err.join(''), json: () => JSON.parse(out.join('')) };
}

describe('fundkit treasury on a sandbox whose treasury is unfunded', () => {
  let sb: SandboxDatabase;
  beforeAll(async () => {
    sb = await unfundedSandbox();
  });
  afterAll(() => sb?.close());

  it('reports the missing account, XLM and trustlines, and exits 1', async () => {
    const run = cli(['treasury', '--json'], sb.env);
    expect(await run.done, run.stderr()).toBe(1);
    const report = run.json();
    expect(report).toMatchObject({
      object: 'treasury_report', network: 'sandbox', address: sb.treasury, exists: false, xlm: '0.0000000', balances: [],
      pool: { size_per_asset: 2, ready: { USDC: 0, EURC: 0, XLM: 0 }, to_create: { USDC: 2, EURC: 2, XLM: 2 } },
      missing_trustlines: ['USDC', 'EURC'], ok: false,
    });
    expect(report.trustlines.map((l: { asset: string; present: boolean }) => [l.asset, l.present])).toEqual([['USDC', false], ['EURC', false]]);
    expect(report.channels).toHaveLength(2);
    expect(report.channels.every((c: { exists: boolean }) => !c.exists)).toBe(true);
    // the account 2 × 0.5 + 2 trustlines × 0.5 + 2 channels × 20 + 4 token pool accounts × 2 + 2 XLM ones × 1.5 + 4 operations' fees
    expect(Object.fromEntries(report.needs.map((n: { item: string; xlm: string }) => [n.item, n.xlm]))).toEqual({
      account: '1.0000000', trustlines: '1.0000000', channels: '40.0000000', pool_USDC: '4.0000000', pool_EURC: '4.0000000', pool_XLM: '3.0000000', fees: '0.0000400',
    });
    expect(report.required_xlm).toBe('53.0000400');
    expect(report.shortfall_xlm).toBe('53.0000400');
    expect(report.missing).toContain('fundkit treasury --fund');
  });

  it('says the same in words by default', async () => {
    const run = cli(['treasury'], sb.env);
    expect(await run.done).toBe(1);
    expect(run.stdout()).toContain(`Treasury (sandbox): ${sb.treasury}`);
    expect(run.stdout()).toContain('MISSING: the account; 53.00004 XLM; trustlines to USDC, EURC');
    expect(run.stdout()).toMatch(/2 × 20 +40 +channel accounts to create/);
    expect(run.stdout()).toContain('fix: pnpm fundkit treasury --fund');
  });

  it('--fund funds it from the embedded friendbot, adds the trustlines, creates the channels; then nothing is missing', async () => {
    const run = cli(['treasury', '--fund'], sb.env);
    expect(await run.done, run.stderr() + run.stdout()).toBe(0);
    expect(run.stdout()).toContain(`funded ${sb.treasury} from the friendbot: now 10000 XLM`);
    expect(run.stdout()).toContain('added trustlines to USDC');
    expect(run.stdout()).toContain('created 2 channel account(s) from the treasury');
    expect(run.stdout()).toContain('Nothing missing');

    const after = cli(['treasury', '--json'], sb.env);
    expect(await after.done).toBe(0);
    const report = after.json();
    // 10,000 − 2 channels × 20 − two transactions' fees (2 trustlines, 2 channels: 4 × 100 stroops)
    expect(report).toMatchObject({ exists: true, xlm: '9959.9999600', ok: true, missing: null, shortfall_xlm: '0.0000000', missing_trustlines: [] });
    expect(report.trustlines.map((l: { present: boolean; balance: string }) => [l.present, l.balance])).toEqual([[true, '0.0000000'], [true, '0.0000000']]);
    expect(report.channels.map((c: { exists: boolean; xlm: string }) => [c.exists, c.xlm])).toEqual([[true, '20.0000000'], [true, '20.0000000']]);
    // the account's 2 reserves and its 2 trustlines now; the pool is still to make (13 XLM)
    expect(report.needs.find((n: { item: string }) => n.item === 'account')).toMatchObject({ count: 4, xlm: '2.0000000' });
    expect(report.required_xlm).toBe('13.0000000');
  });

  it('--fund again has nothing to do', async () => {
    const run = cli(['treasury', '--fund'], sb.env);
    expect(await run.done).toBe(0);
    expect(run.stdout()).not.toContain('friendbot');
  });

  it('the largest configuration (1000 per asset, 100 channels) still fits in one friendbot grant', async () => {
    const run = cli(['treasury', '--json'], { ...sb.env, FUNDKIT_DEPOSIT_POOL_SIZE: '1000', FUNDKIT_TREASURY_CHANNELS: '100' });
    expect(await run.done).toBe(0);
    const report = run.json();
    // 4 reserves (account, 2 trustlines) + 98 more channels × 20 + 2000 token accounts × 2 + 1000 XLM ones × 1.5 + 98 fees
    expect(report.required_xlm).toBe('7462.0009800');
    expect(report.channels.filter((c: { exists: boolean }) => !c.exists)).toHaveLength(98);
  });

  // last: the collection accounts' sponsored reserves change what the treasury's reserves are
  it('--collections makes the collection accounts muxed intents are paid to, once', async () => {
    const before = cli(['treasury', '--json'], sb.env);
    await before.done;
    expect(before.json().collection_accounts).toEqual([]);
    const run = cli(['treasury', '--collections', '--json'], sb.env);
    expect(await run.done, run.stderr()).toBe(0);
    const made = run.json().collection_accounts as { asset: string; address: string; status: string }[];
    expect(made.map((c) => [c.asset, c.status])).toEqual([['EURC', 'ACTIVE'], ['USDC', 'ACTIVE'], ['XLM', 'ACTIVE']]);
    for (const c of made) expect(c.address).toMatch(/^G[A-Z2-7]{55}$/);
    const again = cli(['treasury', '--collections', '--json'], sb.env);
    expect(await again.done).toBe(0);
    expect(again.json().collection_accounts).toEqual(made);
  });
});

describe('fundkit treasury on a sandbox started as usual', () => {
  it('creates the database and the treasury as the server would: genesis funds it, nothing is missing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fundkit-treasury-'));
    const env = { FUNDKIT_DATA_DIR: join(dir, 'data'), FUNDKIT_MASTER_KEY: randomBytes(32).toString('hex') };
    const run = cli(['treasury', '--json', '--db', 'data/fundkit.db'], env, dir);
    expect(await run.done, run.stderr()).toBe(0);
    const report = run.json();
    // genesis: 1,000,000 XLM, and the trustlines' reserves paid by the faucet
    expect(report).toMatchObject({ network: 'sandbox', exists: true, xlm: '1000001.0000000', ok: true });
    expect(report.trustlines.map((l: { balance: string }) => l.balance)).toEqual(['1000000.0000000', '1000000.0000000']);
    // the default configuration: 8 channels, 20 accounts per asset
    expect(report.channels).toHaveLength(8);
    expect(report.pool.to_create).toEqual({ USDC: 20, EURC: 20, XLM: 20 });
    // the key is stored: the next run finds the same treasury
    const again = cli(['treasury', '--json', '--db', 'data/fundkit.db'], env, dir);
    expect(await again.done).toBe(0);
    expect(again.json().address).toBe(report.address);
  });
});

describe('usage', () => {
  const env = { FUNDKIT_DB: ':memory:' };
  it.each([
    [['treasury', 'extra']],
    [['treasury', '--funds']],
    [['treasury', '--db']],
  ])('%j exits 2', async (argv) => {
    const run = cli(argv, env);
    expect(await run.done).toBe(2);
    expect(run.stderr()).toContain('fundkit --help');
  });

  it('bad configuration exits 2, naming the variable', async () => {
    const run = cli(['treasury'], { FUNDKIT_STELLAR: 'mainnet' });
    expect(await run.done).toBe(2);
    expect(run.stderr()).toContain('FUNDKIT_STELLAR');
  });

  it('the help lists the command', async () => {
    const run = cli(['--help'], env);
    expect(await run.done).toBe(0);
    expect(run.stdout()).toContain('fundkit treasury [--fund] [--collections] [--json]');
  });
});

describe('fundkit treasury on Horizon networks', () => {
  let horizon: Server;
  let horizonUrl: string;
  const friendbotCalls: string[] = [];
  beforeAll(async () => {
    // a Horizon that knows no account, and a friendbot that is down
    horizon = createServer((req, res) => {
      if (req.url?.startsWith('/friendbot')) {
        friendbotCalls.push(req.url);
        res.writeHead(502, { 'content-type': 'text/plain' }).end('friendbot down');
        return;
      }
      res.writeHead(404, { 'content-type': 'application/problem+json' })
        .end(JSON.stringify({ type: 'https://stellar.org/horizon-errors/not_found', title: 'Resource Missing', status: 404, detail: 'not found' }));
    });
    await new Promise<void>((resolve) => horizon.listen(0, '127.0.0.1', resolve));
    horizonUrl = `http://127.0.0.1:${(horizon.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => horizon.close(resolve)));

  const envOf = (stellar: string) => ({
    FUNDKIT_STELLAR: stellar, FUNDKIT_HORIZON_URL: horizonUrl, FUNDKIT_DB: join(mkdtempSync(join(tmpdir(), 'fundkit-treasury-')), 'fundkit.db'),
    FUNDKIT_MASTER_KEY: randomBytes(32).toString('hex'), FUNDKIT_DEPOSIT_POOL_SIZE: '0', FUNDKIT_TREASURY_CHANNELS: '1',
  });

  it('pubnet: --fund is refused (exit 2) with the address and the amount to send', async () => {
    const run = cli(['treasury', '--fund'], envOf('pubnet'));
    expect(await run.done).toBe(2);
    // the account 1 + 2 trustlines 1 + 1 channel 20 + 3 fees
    expect(run.stderr()).toMatch(/--fund is refused on pubnet: it has no friendbot\. Fund the treasury yourself: send 22\.00003 XLM to G[A-Z2-7]{55}, then run fundkit treasury --fund again to add its trustlines/);
  });

  it('pubnet: the report names the pubnet issuers and says to send the XLM', async () => {
    const run = cli(['treasury'], envOf('pubnet'));
    expect(await run.done).toBe(1);
    expect(run.stdout()).toContain('issuer GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN');
    expect(run.stdout()).toMatch(/fund it yourself \(pubnet has no friendbot\): send 22\.00003 XLM to G/);
  });

  it('testnet: --fund asks FUNDKIT_FRIENDBOT_URL, and says so when it fails (exit 1)', async () => {
    const run = cli(['treasury', '--fund'], { ...envOf('testnet'), FUNDKIT_FRIENDBOT_URL: `${horizonUrl}/friendbot` });
    expect(await run.done).toBe(1);
    expect(friendbotCalls).toHaveLength(1);
    expect(friendbotCalls[0]).toMatch(/^\/friendbot\?addr=G[A-Z2-7]{55}$/);
    expect(run.stderr()).toContain('refused to fund');
    expect(run.stdout()).toContain('MISSING: the account');
  });
});

describe('the fundkit binary', () => {
  it('exits 1 while something is missing and 0 once funded (a spawned process)', async () => {
    const sb = await unfundedSandbox({ FUNDKIT_TREASURY_CHANNELS: '1', FUNDKIT_DEPOSIT_POOL_SIZE: '1' });
    onTestFinished(() => sb.close());
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const spawn = (args: string[]) => new Promise<{ code: number; stdout: string }>((resolve) => {
      const child = execFile(process.execPath, ['--import', 'tsx', '-e',
        "const { runCli } = await import('./src/cli/index.ts'); process.exitCode = await runCli(process.argv.slice(1));", ...args],
      { cwd: root, env: { ...process.env, ...sb.env } }, (_error, stdout) => resolve({ code: child.exitCode ?? -1, stdout }));
    });
    expect((await spawn(['treasury'])).code).toBe(1);
    const funded = await spawn(['treasury', '--fund']);
    expect(funded.code, funded.stdout).toBe(0);
    expect(funded.stdout).toContain('Nothing missing');
    expect((await spawn(['treasury', '--json'])).code).toBe(0);
  }, 60_000);
});
