/**
 * The operator's surface (issue 38, item 10), through HTTP: the operator key and metrics token,
 * /readyz's detail only for the metrics token, the docs' pre-filled key only for a genuine
 * loopback client (never through the docs proxy or a proxy header), and the sandbox listening on
 * 127.0.0.1 unless HOST says otherwise.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServer, listenHost } from '../src/index.js';
import { KEYS, OPERATOR_KEY, startTestServer, type TestServer } from './helpers/server.js';

vi.setConfig({ hookTimeout: 120_000, testTimeout: 120_000 });

const METRICS_TOKEN = 'metrics-token-0123456789abcdef0123456789';
const PREFILL = 'sk_test_docsPrefill000000000000000001';

let t: TestServer;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fundkit-operator-'));
  // the keys file a first `pnpm start` writes: what /docs pre-fills
  writeFileSync(join(dir, 'sandbox-keys.json'), JSON.stringify({ applications: [{ name: 'Sandbox', secret_keys: [PREFILL] }] }));
  t = await startTestServer({ env: { FUNDKIT_DATA_DIR: dir, FUNDKIT_METRICS_TOKEN: METRICS_TOKEN } });
});
afterAll(() => t.close());

describe('the operator key', () => {
  it('works exactly as configured; a prefix, an extension or a near miss is not it', async () => {
    expect((await t.request('GET', '/v1/platform/applications', { key: OPERATOR_KEY })).status).toBe(200);
    for (const near of [OPERATOR_KEY.slice(0, -1), `${OPERATOR_KEY}0`, `${OPERATOR_KEY.slice(0, -1)}g`]) {
      expect((await t.request('GET', '/v1/platform/applications', { key: near })).status).toBe(401);
    }
  });

  it('shorter than 32 characters stops start-up with how to make one', async () => {
    await expect(createServer({ env: { FUNDKIT_DB: ':memory:', FUNDKIT_OPERATOR_KEY: 'op_short_key' }, logger: pino({ level: 'silent' }) }))
      .rejects.toThrow(/FUNDKIT_OPERATOR_KEY must be at least 32 characters.*openssl rand -hex 32/);
  });
});

describe('/readyz', () => {
  const readyz = async (authorization?: string) => {
    const res = await fetch(`${t.url}/readyz`, { headers: authorization ? { authorization } : {} });
    return { status: res.status, body: await res.json() as { status: string; checks?: Record<string, unknown> } };
  };

  it('tells anyone its status, and its checks only to the metrics token', async () => {
    await expect.poll(async () => (await readyz()).status, { timeout: 60_000 }).toBe(200);
    expect((await readyz()).body).toEqual({ status: 'ready' });
    expect((await readyz(`Bearer ${METRICS_TOKEN.slice(0, -1)}x`)).body).toEqual({ status: 'ready' });
    // the operator key is not the metrics token when one is configured
    expect((await readyz(`Bearer ${OPERATOR_KEY}`)).body).toEqual({ status: 'ready' });
    const detailed = await readyz(`Bearer ${METRICS_TOKEN}`);
    expect(detailed.body.status).toBe('ready');
    expect(Object.keys(detailed.body.checks ?? {}).sort()).toEqual(['database', 'follower', 'network', 'started', 'treasury']);
  });

  it('/metrics takes the token and nothing near it', async () => {
    expect((await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).status).toBe(200);
    expect((await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}0` } })).status).toBe(401);
    expect((await fetch(`${t.url}/metrics`)).status).toBe(401);
  });
});

describe('the docs page', () => {
  const page = (headers: Record<string, string> = {}) => fetch(`${t.url}/docs`, { headers }).then((r) => r.text());

  it('pre-fills the sandbox secret key for a browser on this machine', async () => {
    expect(await page()).toContain(PREFILL);
  });

  it('does not for a request that came through a proxy, whatever its socket', async () => {
    for (const header of ['x-forwarded-for', 'forwarded', 'x-real-ip']) expect(await page({ [header]: '203.0.113.5' })).not.toContain(PREFILL);
  });

  it('its try-it proxy forwards only API operations: a remote client cannot read the page, /metrics or /readyz through it', async () => {
    for (const path of ['/docs', '/metrics', '/readyz', '/openapi.yaml', '/v1/../docs']) {
      const res = await fetch(`${t.url}/docs/proxy?scalar_url=${encodeURIComponent(t.url + path)}`);
      expect(res.status, path).toBe(403);
      const text = await res.text();
      expect(text).not.toContain(PREFILL);
      expect(JSON.parse(text).error.message).toMatch(/only API operations/);
    }
    const api = await fetch(`${t.url}/docs/proxy?scalar_url=${encodeURIComponent(`${t.url}/v1/assets`)}`, { headers: { authorization: `Bearer ${KEYS.alphaSecretTest}` } });
    expect(api.status).toBe(200);
  });
});

describe('where the server listens', () => {
  /** an address of this machine other than loopback, if it has one */
  const external = Object.values(networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

  it('by default: 127.0.0.1 on the sandbox, every interface elsewhere; HOST decides', () => {
    expect(listenHost({ host: null, stellar: 'sandbox' })).toBe('127.0.0.1');
    expect(listenHost({ host: null, stellar: 'pubnet' })).toBe('0.0.0.0');
    expect(listenHost({ host: '0.0.0.0', stellar: 'sandbox' })).toBe('0.0.0.0');
  });

  it.skipIf(!external)('a sandbox server is not reachable from the network unless HOST opens it', async () => {
    const reach = async (env: Record<string, string>) => {
      const server = await createServer({ env: { FUNDKIT_DB: ':memory:', FUNDKIT_DATA_DIR: mkdtempSync(join(tmpdir(), 'fundkit-host-')), LOG_LEVEL: 'silent', ...env }, logger: pino({ level: 'silent' }) });
      try {
        const { port, url } = await server.listen(0);
        expect((await fetch(`${url}/healthz`)).status).toBe(200);
        return await fetch(`http://${external}:${port}/healthz`).then((r) => r.status, () => 'refused');
      } finally {
        await server.close();
      }
    };
    expect(await reach({})).toBe('refused');
    expect(await reach({ HOST: '0.0.0.0' })).toBe(200);
  });
});
