import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { formatBanner, formatNetworkBanner, prepareSandbox, SHOP_WEBHOOK_URL } from '../src/banner.js';
import { KEYS } from './helpers/server.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const started: TestServer[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((t) => t.close()));
});

const databases = new Map<string, string>();

/** A server as `pnpm start` makes it: no bootstrap file, a database file in the data directory (or one PostgreSQL database per directory). */
async function startLikePnpmStart(dir: string): Promise<TestServer> {
  if (process.env.FUNDKIT_TEST_ENGINE === 'postgres' && !databases.has(dir)) databases.set(dir, await (await import('./helpers/postgres.js')).freshPostgresDatabase('server'));
  const database = databases.get(dir);
  const t = await startTestServer({ bootstrap: null, env: { FUNDKIT_DB: join(dir, 'fundkit.db'), FUNDKIT_DATA_DIR: dir, ...(database ? { FUNDKIT_DATABASE_URL: database } : {}) } });
  started.push(t);
  return t;
}

async function signIn(t: TestServer, login: { email: string; password: string }): Promise<string> {
  const res = await t.request('POST', '/v1/auth/sign-in', { body: { email: login.email, password: login.password } });
  expect(res.status).toBe(200);
  return res.body.token as string;
}

describe("the banner's dashboard login", () => {
  it("sees the quickstart's application, its keys and the demo intent", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fundkit-quickstart-'));
    const t = await startLikePnpmStart(dir);
    const banner = await prepareSandbox(t.server, t.url);
    expect(banner.demo).not.toBeNull();
    const session = await signIn(t, banner.dashboard!);
    const apps = await t.request('GET', '/v1/applications', { key: session });
    expect(apps.body.data.map((a: { name: string }) => a.name)).toEqual(['Sandbox application']);
    const appId = apps.body.data[0].id as string;
    const headers = { 'fundkit-application': appId, 'fundkit-environment': 'test' };
    const keys = await t.request('GET', `/v1/applications/${appId}/keys`, { key: session });
    expect(keys.body.data.map((k: { masked: string }) => k.masked.slice(-4))).toContain(banner.keys!.secretKey.slice(-4));
    const intents = await t.request('GET', '/v1/funding-intents', { key: session, headers });
    expect(intents.body.data.map((i: { id: string }) => i.id)).toContain(banner.demo!.id);
  }, 60_000);

  it('takes over the sandbox application of a database made before it, on the next start, keeping its keys', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fundkit-quickstart-'));
    // an older start: the sandbox application and its keys, no development account owning them
    const older = await startLikePnpmStart(dir);
    const appBefore = (await older.server.services.applications.list('operator', { limit: 10, after: null })).data;
    expect(appBefore.map((a) => a.account_id)).toEqual([null]);
    await older.close();
    started.splice(0);
    const next = await startLikePnpmStart(dir);
    const banner = await prepareSandbox(next.server, next.url);
    const session = await signIn(next, banner.dashboard!);
    const apps = await next.request('GET', '/v1/applications', { key: session });
    expect(apps.body.data.map((a: { id: string }) => a.id)).toEqual([appBefore[0]!.id]);
    // the saved key still creates intents for it, and a third start finds it by that key (no second application)
    const created = await next.request('POST', '/v1/funding-intents', { key: banner.keys!.secretKey, body: { amount: '5', asset: 'USDC' } });
    expect(created.status).toBe(201);
    await next.close();
    started.splice(0);
    const third = await startLikePnpmStart(dir);
    expect((await third.server.services.applications.list('operator', { limit: 10, after: null })).data).toHaveLength(1);
  }, 90_000);
});

describe('GET /v1', () => {
  it("answers with the API's name, version, network and links", async () => {
    const t = await startTestServer();
    started.push(t);
    // outside the contract, as /healthz is (INTERFACE.md puts every API path under /v1/)
    const answer = await fetch(`${t.url}/v1`);
    const res = { status: answer.status, body: await answer.json() };
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'api', name: 'Fundkit API', interface_version: '1', network: 'sandbox', links: { docs: '/docs', dashboard: '/dashboard' } });
    expect(res.body.version).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('GET /favicon.ico', () => {
  it('is an icon (a PNG in an ICO), so no page the server serves logs a 404 for it', async () => {
    const t = await startTestServer();
    started.push(t);
    const res = await fetch(`${t.url}/favicon.ico`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('image/x-icon');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 4)]).toEqual([0, 0, 1, 0]);
    expect(bytes.subarray(22, 26).toString('latin1')).toBe('\x89PNG');
  });
});

describe('quickstart steps 5 and 6', () => {
  it("the banner's and the README's `fundkit listen` point at the example shop's port and webhook path", async () => {
    const t = await startTestServer();
    started.push(t);
    const entry = new URL('../../../examples/node-backend/src/shop.js', import.meta.url).href;
    const { startShop } = (await import(entry)) as { startShop(o: Record<string, unknown>): Promise<{ endpoint: { url: string }; close(): Promise<void> }> };
    const shop = await startShop({ apiKey: KEYS.alphaSecretTest, apiBase: t.url, port: 0, host: '127.0.0.1', logger: { info: () => undefined } });
    await shop.close();
    const listenUrl = new URL(SHOP_WEBHOOK_URL);
    expect(listenUrl.pathname).toBe(new URL(shop.endpoint.url).pathname);
    expect(listenUrl.port).toBe('3000'); // the shop's default port (examples/node-backend/src/config.js)
    const command = `pnpm fundkit listen --forward-to ${SHOP_WEBHOOK_URL}`;
    expect(formatBanner({ url: 'http://localhost:4010', keys: null, demo: null })).toContain(command);
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(command);
    expect(readme).not.toMatch(/--forward-to\s+http:\/\/localhost:3000\/webhooks(?!\/fundkit)/);
  });
});

describe('the banner on testnet and custom networks', () => {
  const info = { url: 'http://localhost:4010', network: 'testnet' as const, passphrase: 'Test SDF Network ; September 2015', via: 'Stellar RPC https://soroban-testnet.stellar.org', poolSize: 2 };

  it('names the network and URLs, and walks to a first key: sign up, the logged verification link, an application and its key', () => {
    const banner = formatNetworkBanner({ ...info, ready: { USDC: 2, EURC: 2, XLM: 2 } });
    expect(banner).toContain('Fundkit reference server — testnet (the Stellar test network');
    expect(banner).toContain('http://localhost:4010/v1');
    expect(banner).toContain('Sign up at http://localhost:4010/dashboard/#/sign-up');
    expect(banner).toContain('verification link this server logs');
    expect(banner).toContain('test secret key');
    expect(banner).toContain('export FUNDKIT_API_KEY=');
    expect(banner).toContain('2 USDC, 2 EURC, 2 XLM ready of 2 each');
    expect(banner).not.toContain('no real money');
  });

  it('an empty deposit pool points at the command that funds the treasury', () => {
    expect(formatNetworkBanner({ ...info, network: 'custom', ready: { USDC: 0, EURC: 0, XLM: 0 } })).toContain('pnpm fundkit treasury --fund funds it');
    const pubnet = formatNetworkBanner({ ...info, network: 'pubnet', ready: { USDC: 0, EURC: 0, XLM: 0 } });
    expect(pubnet).not.toContain('--fund');
    expect(pubnet).toContain('live secret key');
  });
});
