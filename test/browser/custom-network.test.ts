/**
 * The README's "A local network" and "Run on testnet" steps in Chromium (issue 42): `fundkit
 * sandbox` started on its own, `fundkit treasury --fund` and the server with the README's
 * variables (FUNDKIT_STELLAR=custom over its RPC; no sandbox mode, no bootstrap, no printed keys),
 * then the banner's way to a first key: sign up at /dashboard, open the verification link the
 * server logs, sign in, create an application with its settlement address and a test secret key,
 * and create the first intent with the README's curl. The dashboard names the custom network and
 * never says "sandbox data, no real money" there.
 */
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { formatNetworkBanner, prepareNetworkBanner } from '../../packages/server/src/banner.js';
import { runCli, type CliIo } from '../../packages/server/src/cli/index.js';
import { loadConfig } from '../../packages/server/src/config.js';
import { SETTLEMENT_ADDRESS, startTestServer, type TestServer } from '../../packages/server/test/helpers/server.js';
import { launchChromium } from './harness.js';
import { codeBlocks, commandLine, fundkitArgv, parseCurl, readmeSection } from './readme.js';

/** What a page may take to show a change on a loaded two-core machine (a wait for a condition, never a sleep). */
const SOON = { timeout: 20_000 };
const DASHBOARD = join(import.meta.dirname, '..', '..', 'packages', 'dashboard');
const LOCAL = readmeSection('A local network');
const TESTNET = readmeSection('Run on testnet');
/** Where the README's local network listens (`--port 8000`); the test's takes a free port. */
const README_NETWORK = 'http://localhost:8000';
const PASSWORD = 'correct-horse-battery-staple';

const folder = mkdtempSync(join(tmpdir(), 'fundkit-local-network-'));
const stopNetwork = new AbortController();
let networkRun: Promise<number>;
let networkOut = '';
let env: Record<string, string>;
let t: TestServer;
let banner: string;
let browser: Browser;

/** `pnpm fundkit …` in the user's folder, with the environment the README's command line sets. */
function fundkit(argv: string[], extraEnv: Record<string, string>, out: (s: string) => void, signal?: AbortSignal): Promise<number> {
  const io: CliIo = { stdout: out, stderr: out, cwd: folder, env: { ...extraEnv, FUNDKIT_CONFIG_DIR: join(folder, 'config') }, pollMs: 100, signal };
  return runCli(argv, io);
}

/** The `VAR=value` assignments before the README's `sh -c '… pnpm start'`, its URLs on the test network, its paths in the user's folder. */
function readmeServerEnv(networkUrl: string): Record<string, string> {
  const command = codeBlocks(LOCAL).flatMap((b) => b.split('\n')).find((l) => l.startsWith('FUNDKIT_STELLAR='));
  if (!command) throw new Error('README.md "A local network": no FUNDKIT_STELLAR=… command');
  const pairs = [...command.matchAll(/([A-Z_]+)=("[^"]*"|\S+)/g)].map(([, name, value]) => [name!, value!.replace(/^"|"$/g, '')] as const);
  return Object.fromEntries(pairs.map(([name, value]) => {
    if (name === 'FUNDKIT_DB' || name === 'FUNDKIT_DATA_DIR') return [name, isAbsolute(value) ? value : resolve(folder, value)];
    return [name, value.replace(README_NETWORK, networkUrl)];
  }));
}

beforeAll(async () => {
  if (!existsSync(join(DASHBOARD, 'dist', 'index.html'))) execSync('pnpm build', { cwd: DASHBOARD, stdio: 'inherit' });
  // `pnpm fundkit sandbox --port 8000 --ledger-seconds 1`, on a free port, its ledger in the folder
  const sandboxArgv = fundkitArgv(commandLine(LOCAL, 'pnpm fundkit sandbox')).map((a) => (a === '8000' ? '0' : a));
  mkdirSync(join(folder, '.network'), { recursive: true });
  networkRun = fundkit([...sandboxArgv, '--db', join(folder, '.network', 'sandbox.db')], {}, (s) => { networkOut += s; }, stopNetwork.signal);
  await vi.waitFor(() => { if (!networkOut.includes('ready in')) throw new Error(`fundkit sandbox is not ready: ${networkOut}`); }, { timeout: 20_000, interval: 50 });
  const networkUrl = /Horizon\s+(http:\/\/\S+?)\/?$/m.exec(networkOut)![1]!;
  env = readmeServerEnv(networkUrl);
  if (process.env.FUNDKIT_TEST_ENGINE === 'postgres') {
    env.FUNDKIT_DATABASE_URL = await (await import('../../packages/server/test/helpers/postgres.js')).freshPostgresDatabase('server');
  }
  // `sh -c 'pnpm fundkit treasury --fund && pnpm start'`
  let treasuryOut = '';
  expect(await fundkit(['treasury', '--fund'], env, (s) => { treasuryOut += s; }), treasuryOut).toBe(0);
  t = await startTestServer({ bootstrap: null, env: { ...env, FUNDKIT_DEPOSIT_POOL_SIZE: '1', FUNDKIT_TREASURY_CHANNELS: '2' } });
  banner = formatNetworkBanner(await prepareNetworkBanner(t.server, t.url));
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
  stopNetwork.abort();
  await networkRun;
});

describe('a custom network, by the README', () => {
  it("the README's local network runs beside the quickstart: its own port, data folder and database; the sandbox's assets", () => {
    expect(env.FUNDKIT_STELLAR).toBe('custom');
    // `pnpm start` of the quickstart: its defaults, in the same folder
    const quickstart = loadConfig({});
    expect(Number(env.PORT)).not.toBe(quickstart.port);
    expect(env.FUNDKIT_DATA_DIR).not.toBe(resolve(folder, quickstart.dataDir));
    expect(env.FUNDKIT_DB).not.toBe(resolve(folder, quickstart.dbPath));
    // the README's FUNDKIT_ASSETS are what `fundkit sandbox` prints as CODE:ISSUER
    for (const asset of env.FUNDKIT_ASSETS!.split(',')) expect(networkOut).toContain(`Asset       ${asset}`);
    expect(banner).toContain('Fundkit reference server — a custom Stellar network');
    expect(banner).not.toContain('no real money');
  });

  it('signs up, opens the logged verification link, signs in, creates an application with a settlement address and a key; the key creates the first intent', async () => {
    const email = 'first@example.org';
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' })).newPage();
    page.setDefaultTimeout(30_000);
    // 1. sign up where the banner says
    await page.goto(/Sign up at (\S+)/.exec(banner)![1]!.replace(/^http:\/\/localhost:/, 'http://127.0.0.1:'));
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('heading', { name: 'Verify your email' }).waitFor();
    // off the sandbox the page does not hand out the link: it is in the server's log
    expect(await page.getByText('Sandbox: the verification link').count()).toBe(0);

    // 2. the log line the README names: "msg":"verification link …" with its dashboard_url
    expect(TESTNET).toContain('"msg":"verification link …"');
    let line: Record<string, unknown> | undefined;
    await expect.poll(() => (line = t.logs.find((l) => l.email === email && String(l.msg).startsWith('verification link'))), SOON).toBeDefined();
    const link = String(line!.dashboard_url);
    expect(link).toMatch(/\/dashboard\/#\/verify\?token=emv_/);
    await page.goto(link.replace(/^http:\/\/localhost:/, 'http://127.0.0.1:'));
    await page.getByText('Email verified.').waitFor();
    await page.getByRole('link', { name: 'Sign in' }).first().click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();

    // 3. an application with its settlement address, on the Applications page
    await page.getByRole('heading', { name: 'Applications', level: 1 }).waitFor();
    const note = page.getByRole('note');
    await expect.poll(() => note.textContent(), SOON).toBe("Test mode on a custom Stellar network (the one this server's operator configured).");
    expect(await page.getByText('sandbox data, no real money').count()).toBe(0);
    await page.getByLabel('Name', { exact: true }).fill('Local Shop');
    await page.getByLabel('Settlement address', { exact: true }).fill(SETTLEMENT_ADDRESS);
    await page.getByRole('button', { name: 'Create application' }).click();
    await page.getByRole('heading', { name: 'Keys of Local Shop' }).waitFor();

    // 4. a test secret key on the same page, shown once
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByTestId('new-key').textContent())!;
    expect(key).toMatch(/^sk_test_/);
    expect(await page.getByText('sandbox data, no real money').count()).toBe(0);

    // and the README's first curl with it
    const curl = parseCurl(codeBlocks(TESTNET).flatMap((b) => b.split('\n')).find((l) => l.startsWith('curl '))!);
    const created = await fetch(curl.url.replace('http://localhost:4010', t.url), {
      method: curl.method, body: curl.body,
      headers: { ...curl.headers, authorization: curl.headers.authorization!.replace('$FUNDKIT_API_KEY', key) },
    });
    const intent = (await created.json()) as { id: string; status: string; requirement: { amount: string; asset: string } };
    expect(created.status, JSON.stringify(intent)).toBe(201);
    expect(intent.requirement).toEqual({ amount: '1.0000000', asset: 'USDC' });

    // the dashboard lists it under the application
    await page.getByRole('link', { name: 'Intents', exact: true }).click();
    await expect.poll(() => page.locator('li', { hasText: intent.id }).textContent(), SOON).toContain('1.00 USDC');
    expect(await page.getByText('sandbox data, no real money').count()).toBe(0);
  });
});
