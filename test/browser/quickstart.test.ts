/**
 * The README's quickstart as a new user follows it, then the dashboard (issue 42): a server made as
 * `pnpm start` makes it (sandbox, a database file in its data folder `.fundkit/`, no bootstrap),
 * its banner; the README's own commands (read from README.md, see readme.ts) run in the same
 * folder: `fundkit listen` (step 6), `fundkit pay` on the demo intent (step 2), the curl of step 3
 * with the banner's secret key. Then Chromium signs in with the banner's "Dashboard login" and sees
 * the application, its key, both intents (the curl one paid there with the test helper) CREDITED,
 * the payment and the webhook delivery.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatBanner, prepareSandbox } from '../../packages/server/src/banner.js';
import { runCli, type CliIo } from '../../packages/server/src/cli/index.js';
import { loadConfig } from '../../packages/server/src/config.js';
import { startTestServer, type TestServer } from '../../packages/server/test/helpers/server.js';
import { launchChromium } from './harness.js';
import { bannerRows, codeBlocks, commandLine, fundkitArgv, parseCurl, readmeSection } from './readme.js';

/** What a page may take to show a change on a loaded two-core machine (a wait for a condition, never a sleep). */
const SOON = { timeout: 20_000 };
const DASHBOARD = join(import.meta.dirname, '..', '..', 'packages', 'dashboard');
const QUICKSTART = readmeSection('Quickstart');
/** The README writes every URL for the default port; the test's server listens where it can. */
const README_BASE = 'http://localhost:4010';

/** The folder the user cloned into: `pnpm start` keeps its data in `.fundkit/` there, the CLI finds its keys there. */
const folder = mkdtempSync(join(tmpdir(), 'fundkit-readme-'));
const dataDir = join(folder, '.fundkit');
let t: TestServer;
let banner: string;
let browser: Browser;
let receiver: Server;
let receiverUrl: string;
const received: string[] = [];

beforeAll(async () => {
  if (!existsSync(join(DASHBOARD, 'dist', 'index.html'))) execSync('pnpm build', { cwd: DASHBOARD, stdio: 'inherit' });
  mkdirSync(dataDir, { recursive: true });
  // as `pnpm start` (main.ts): no bootstrap, the database file in the data folder; on PostgreSQL a fresh database
  t = await startTestServer({ bootstrap: null, env: { FUNDKIT_DB: join(dataDir, 'fundkit.db'), FUNDKIT_DATA_DIR: dataDir } });
  banner = formatBanner(await prepareSandbox(t.server, t.url, '127.0.0.1'));
  browser = await launchChromium();
  // the user's own webhook receiver (README step 6, port 3002 there)
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString(); });
    req.on('end', () => { received.push(body); res.writeHead(200).end('ok'); });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});

/** The banner's value for a label (`  Secret key       sk_test_…`). */
function row(label: string): string {
  const found = bannerRows(banner).find(([l]) => l === label);
  if (!found) throw new Error(`the banner has no "${label}" row:\n${banner}`);
  return found[1];
}

/** The README's URL on the test server's port. */
const here = (readmeUrl: string) => readmeUrl.replace(README_BASE, `http://localhost:${new URL(t.url).port}`);

/** `pnpm fundkit …` run in the user's folder, as the second terminal of the quickstart does. */
function fundkit(argv: string[], signal?: AbortSignal) {
  const out: string[] = [];
  const io: CliIo = {
    stdout: (s) => void out.push(s), stderr: (s) => void out.push(s), cwd: folder, pollMs: 100, signal,
    // FUNDKIT_API_BASE: what the README says to export when the server is on another port
    env: { FUNDKIT_API_BASE: `http://localhost:${new URL(t.url).port}`, FUNDKIT_CONFIG_DIR: join(folder, 'config') },
  };
  return { done: runCli(argv, io), output: () => out.join('') };
}

async function signIn(width: number): Promise<Page> {
  const [email, password] = row('Dashboard login').split(' / ');
  const page = await (await browser.newContext({ viewport: { width, height: 900 }, locale: 'en-US' })).newPage();
  page.setDefaultTimeout(30_000);
  await page.goto(row('Dashboard'));
  await page.getByLabel('Email').fill(email!);
  await page.getByLabel('Password').fill(password!);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  return page;
}

describe("the README's quickstart, then the dashboard with the banner's login", () => {
  it("the banner's labels, URLs and commands are the README's sample", () => {
    const sample = codeBlocks(QUICKSTART).find((b) => b.includes('Fundkit reference server — sandbox'));
    expect(sample, 'the README shows the banner').toBeDefined();
    // the same rows, in the same order; each URL the same but for the port
    expect(bannerRows(banner).map(([label]) => label)).toEqual(bannerRows(sample!).map(([label]) => label));
    for (const label of ['API', 'Docs', 'Contract', 'Dashboard', 'Horizon']) expect(row(label)).toBe(here(bannerRows(sample!).find(([l]) => l === label)![1]));
    expect(loadConfig({ FUNDKIT_DB: ':memory:' }).port).toBe(Number(new URL(README_BASE).port));
    // the commands the banner prints are the README's (step 2's pay, step 6's listen), with this start's intent id
    const pay = commandLine(QUICKSTART, 'pnpm fundkit pay');
    const demoId = /pnpm fundkit pay (fi_\w+)/.exec(banner)![1]!;
    expect(banner).toContain(pay.replace(/fi_\w+/, demoId));
    expect(banner).toContain(/pnpm fundkit listen --forward-to \S+/.exec(sample!)![0]);
    // every other line as printed (the title, where it listens, the two commands), this start's intent id aside
    const sampleId = /pnpm fundkit pay (fi_\w+)/.exec(sample!)![1]!;
    const sampleLines = sample!.split('\n');
    const rowLines = new Set(bannerRows(banner).map(([label, value]) => `${label} ${value}`));
    for (const line of banner.split('\n').filter((l) => l.trim() !== '' && !rowLines.has(l.trim().replace(/ {2,}/, ' ')))) {
      expect(sampleLines, 'a banner line the README does not show').toContain(line.replace(demoId, sampleId));
    }
    // where the login is saved, as the README says
    expect(QUICKSTART).toContain('`.fundkit/dashboard-account.json`');
    const saved = JSON.parse(readFileSync(join(dataDir, 'dashboard-account.json'), 'utf8')) as { email: string; password: string };
    expect(`${saved.email} / ${saved.password}`).toBe(row('Dashboard login'));
  });

  it("fundkit pay, the step-3 curl and listen, then the dashboard shows the application, its key, both intents CREDITED, the payment and the delivery", async () => {
    // step 6 first, so the webhooks of steps 2 and 3 reach the receiver: the README's listen line, at the receiver
    const listenLine = commandLine(QUICKSTART, 'pnpm fundkit listen --forward-to http://localhost:3002');
    const stop = new AbortController();
    const listen = fundkit(fundkitArgv(listenLine.replace('http://localhost:3002', receiverUrl)), stop.signal);
    await expect.poll(listen.output, SOON).toContain('Webhook signing secret: whsec_');

    // step 2: the README's pay command with the banner's demo intent
    const demoId = /pnpm fundkit pay (fi_\w+)/.exec(banner)![1]!;
    const pay = fundkit(fundkitArgv(commandLine(QUICKSTART, 'pnpm fundkit pay').replace(/fi_\w+/, demoId)));
    expect(await pay.done, pay.output()).toBe(0);
    expect(pay.output()).toContain(`Intent ${demoId}: CREDITED, received 25.0000000 of 25.0000000 USDC`);

    // step 3: the README's curl, with the banner's secret key
    const curl = parseCurl(codeBlocks(QUICKSTART).flatMap((b) => b.split('\n')).find((l) => l.startsWith('curl '))!);
    const created = await fetch(here(curl.url), {
      method: curl.method, body: curl.body,
      headers: { ...curl.headers, authorization: curl.headers.authorization!.replace('$FUNDKIT_API_KEY', row('Secret key')) },
    });
    expect(created.status).toBe(201);
    const mine = (await created.json()) as { id: string; reference: string; hosted_funding_url: string };
    expect(mine.hosted_funding_url.startsWith(`http://localhost:${new URL(t.url).port}/checkout/${mine.id}?k=`)).toBe(true);

    // the dashboard, signed in with the banner's login: the network says sandbox, truthfully
    const page = await signIn(1280);
    // the login owns the quickstart's application: the header picks it (no "No applications yet")
    await expect.poll(() => page.getByRole('combobox', { name: 'Application' }).textContent(), SOON).toBe('Sandbox application');
    await expect.poll(() => page.getByRole('note').textContent(), SOON).toBe('Test mode: sandbox data, no real money.');

    // the step-3 intent, paid with the dashboard's test helper
    await page.getByRole('link', { name: 'Intents', exact: true }).click();
    const mineRow = page.locator('li', { hasText: mine.id });
    await expect.poll(() => mineRow.textContent(), SOON).toContain(mine.reference);
    await mineRow.getByRole('link', { name: '25.00 USDC' }).click();
    await page.getByRole('heading', { name: `Funding intent ${mine.id}` }).waitFor();
    await page.getByRole('button', { name: 'Pay 25.00 USDC' }).click();
    await expect.poll(() => page.getByRole('region', { name: 'Summary' }).textContent(), { timeout: 30_000 }).toContain('CREDITED');

    // the demo intent fundkit pay paid: CREDITED with its payment of 25 and payment.completed in the timeline
    await page.goto(`${page.url().split('#')[0]}#/intent/${demoId}`);
    await page.getByRole('heading', { name: `Funding intent ${demoId}` }).waitFor();
    await expect.poll(() => page.getByRole('region', { name: 'Summary' }).textContent(), SOON).toContain('CREDITED');
    await expect.poll(() => page.getByRole('region', { name: 'Payments' }).textContent(), SOON).toContain('25.00');
    await expect.poll(() => page.getByRole('region', { name: 'Timeline' }).textContent(), SOON).toContain('payment.completed');

    // both in the list, CREDITED
    await page.getByRole('link', { name: 'Intents', exact: true }).click();
    for (const id of [demoId, mine.id]) await expect.poll(() => page.locator('li', { hasText: id }).textContent(), SOON).toContain('CREDITED');

    // the webhooks listen registered, and their deliveries the receiver answered 200
    const completed = (id: string) => received.some((body) => body.includes('"payment.completed"') && body.includes(id));
    await expect.poll(() => completed(demoId) && completed(mine.id), { timeout: 30_000 }).toBe(true);
    expect(listen.output().match(/<-- \[200\] payment\.completed/g)).toHaveLength(2);
    await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
    await page.getByRole('button', { name: `${receiverUrl}/webhooks`, exact: true }).click();
    const deliveries = page.getByRole('region', { name: `Deliveries to ${receiverUrl}/webhooks` });
    await expect.poll(() => deliveries.locator('li.delivery', { hasText: 'payment.completed' }).count(), SOON).toBeGreaterThanOrEqual(2);
    expect(await deliveries.locator('li.delivery', { hasText: 'payment.completed' }).first().textContent()).toContain('HTTP 200');

    // the application the quickstart made, and its key (masked, ending as the banner's)
    await page.getByRole('link', { name: 'Applications', exact: true }).click();
    await page.getByRole('button', { name: 'Sandbox application' }).click();
    const keys = page.getByRole('region', { name: 'Keys of Sandbox application' });
    await expect.poll(() => keys.textContent(), SOON).toContain(`sk_test_…${row('Secret key').slice(-4)}`);
    await expect.poll(() => keys.textContent(), SOON).toContain(`pk_test_…${row('Publishable key').slice(-4)}`);

    stop.abort();
    expect(await listen.done, listen.output()).toBe(0);
  });
});
