/**
 * Issue 30: what an operator's tools see, through HTTP. /healthz and /readyz answer without
 * credentials and name every check; /readyz goes 503 while the database or the network is away
 * and 200 again when it comes back; /metrics parses as Prometheus text and its counters move as a
 * payment goes from create to CREDITED with its webhook delivered, and as a webhook fails.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
// @ts-expect-error: the parser ships no types; it returns [{ name, type, metrics: [{ value, labels }] }]
import parsePrometheus from 'parse-prometheus-text-format';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, OPERATOR_KEY, startTestServer, type TestServer } from './helpers/server.js';
import { createIntent, FAST_ENV, key, pay, waitFor, waitForIntent } from './pipeline/helpers.js';

interface Family { name: string; type: string; metrics: { value?: string; labels?: Record<string, string>; buckets?: unknown }[] }

const scrape = async (t: TestServer, token?: string): Promise<Map<string, Family>> => {
  const res = await fetch(`${t.url}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return new Map((parsePrometheus(await res.text()) as Family[]).map((f) => [f.name, f]));
};

/** The value of one series (labels matched as given), 0 when it has not appeared yet. */
function value(metrics: Map<string, Family>, name: string, labels: Record<string, string> = {}): number {
  const family = metrics.get(name);
  const series = family?.metrics.filter((s) => Object.entries(labels).every(([k, v]) => s.labels?.[k] === v)) ?? [];
  return series.reduce((sum, s) => sum + Number(s.value ?? 0), 0);
}

/** /readyz with the metrics token (here the operator key): without it, the status alone */
const readyz = async (t: TestServer) => {
  const res = await fetch(`${t.url}/readyz`, { headers: { authorization: `Bearer ${OPERATOR_KEY}` } });
  return { status: res.status, body: await res.json() as { status: string; checks: Record<string, { status: string; error?: string }> } };
};

describe('on the sandbox', () => {
  let t: TestServer;
  let receiver: Server;
  let receiverUrl = '';
  let failing = false;
  // while failing, a retry (attempt 2 on) is answered only once the test has read the pending
  // series: on a busy machine the retry a second later could otherwise fail before the scrape
  let releaseRetries: () => void = () => {};
  let retriesHeld: Promise<void> = Promise.resolve();
  beforeAll(async () => {
    receiver = createServer((req, res) => {
      req.resume();
      const retry = Number(req.headers['service-webhook-attempt'] ?? 1) > 1;
      req.on('end', () => {
        if (!failing) return void res.writeHead(200).end('ok');
        void (retry ? retriesHeld : Promise.resolve()).then(() => res.writeHead(500).end('receiver down'));
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    t = await startTestServer({ env: { ...FAST_ENV, FUNDKIT_WEBHOOK_RETRY_SCHEDULE: '1s' } });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it('/healthz and /readyz answer without credentials, name every check, and hold no secret', async () => {
    const health = await fetch(`${t.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', checks: { event_loop: { status: 'ok' } } });
    await expect.poll(async () => (await readyz(t)).status).toBe(200);
    const ready = await readyz(t);
    expect(ready.body.status).toBe('ready');
    expect(Object.keys(ready.body.checks).sort()).toEqual(['database', 'follower', 'network', 'started', 'treasury']);
    expect(Object.values(ready.body.checks).every((c) => c.status === 'ok')).toBe(true);
    expect(JSON.stringify(ready.body)).not.toMatch(/sk_test_|whsec_|S[A-Z2-7]{55}/);
  });

  it('/metrics parses as Prometheus text, with no id in any label', async () => {
    const metrics = await scrape(t, OPERATOR_KEY);
    for (const name of ['fundkit_http_requests_total', 'fundkit_http_request_duration_seconds', 'nodejs_eventloop_lag_seconds', 'fundkit_queue_depth',
      'fundkit_deposit_pool_ready', 'fundkit_treasury_balance', 'fundkit_treasury_xlm_headroom_ratio', 'fundkit_network_requests_total', 'fundkit_ledgers_behind']) {
      expect(metrics.has(name), name).toBe(true);
    }
    const labels = [...metrics.values()].flatMap((f) => f.metrics.flatMap((s) => Object.values(s.labels ?? {})));
    expect(labels.filter((l) => /^(fi|pay|stl|rf|evt|wd|we|app|key|req)_[0-9A-Z]{10,}/.test(l) || /^G[A-Z2-7]{55}$/.test(l))).toEqual([]);
    expect(value(metrics, 'fundkit_treasury_xlm_headroom_ratio')).toBeGreaterThan(0.5);
    expect(value(metrics, 'fundkit_deposit_pool_ready', { asset: 'USDC' })).toBeGreaterThan(0);
  });

  it('counters move as a payment goes from create to CREDITED with its webhook delivered', async () => {
    const before = await scrape(t, OPERATOR_KEY);
    const endpoint = await t.request('POST', '/v1/webhooks', { key, body: { url: receiverUrl, events: ['invoice.paid'] } });
    expect(endpoint.status).toBe(201);
    const intent = await createIntent(t, { amount: '7.00' });
    await pay(t, intent.id, '7.00');
    await waitForIntent(t, intent.id, (i) => i.status === 'CREDITED', 15_000);
    const delivered = async () => (await t.request('GET', `/v1/webhooks/${endpoint.body.id}/deliveries`, { key })).body.data as any[];
    await waitFor(delivered, (d) => d.some((x) => x.status === 'SUCCEEDED'), 10_000);
    const after = await waitFor(() => scrape(t, OPERATOR_KEY), (m) => value(m, 'fundkit_webhook_attempts_total', { outcome: 'succeeded' }) > value(before, 'fundkit_webhook_attempts_total', { outcome: 'succeeded' }), 10_000, 100);
    const moved = (name: string, labels: Record<string, string> = {}) => value(after, name, labels) - value(before, name, labels);
    expect(moved('fundkit_http_requests_total', { operation: 'createFundingIntent', status: '201' })).toBe(1);
    expect(moved('fundkit_intent_transitions_total', { to: 'CREDITED' })).toBe(1);
    expect(moved('fundkit_intent_transitions_total', { from: 'PAYMENT_DETECTED', to: 'PAYMENT_CONFIRMED' })).toBe(1);
    expect(moved('fundkit_payments_observed_total', { asset: 'USDC', applied: 'true' })).toBe(1);
    expect(moved('fundkit_settlements_total', { outcome: 'submitted' })).toBe(1);
    expect(moved('fundkit_settlements_total', { outcome: 'confirmed' })).toBe(1);
    expect(moved('fundkit_network_requests_total')).toBeGreaterThan(0);
    // the payment's pipeline events were each logged once, with their ids
    const events = t.logs.filter((l) => l.intent === intent.id).map((l) => l.event);
    expect(events).toEqual(expect.arrayContaining(['payment.observed', 'settlement.submitted', 'settlement.confirmed', 'intent.credited']));
    expect(events.filter((e) => e === 'intent.credited')).toHaveLength(1);
  });

  it('a failing webhook shows in the pending series, then in the failed one', async () => {
    failing = true;
    retriesHeld = new Promise((resolve) => { releaseRetries = resolve; });
    try {
      const endpoint = await t.request('POST', '/v1/webhooks', { key, body: { url: receiverUrl, events: ['payment.pending'] } });
      await createIntent(t, { amount: '3.00' });
      // first attempt answered 500: pending, with its retry a second later (held by the receiver
      // until now, so the delivery is still pending whenever this scrape happens)
      const pending = await waitFor(() => scrape(t, OPERATOR_KEY),
        (m) => value(m, 'fundkit_webhook_attempts_total', { outcome: 'retrying' }) >= 1, 10_000, 50);
      expect(value(pending, 'fundkit_queue_depth', { queue: 'webhook_deliveries_pending' })).toBeGreaterThanOrEqual(1);
      releaseRetries();
      // the last retry fails too: given up
      const failed = await waitFor(() => scrape(t, OPERATOR_KEY), (m) => value(m, 'fundkit_queue_depth', { queue: 'webhook_deliveries_failed' }) >= 1, 10_000, 100);
      expect(value(failed, 'fundkit_webhook_attempts_total', { outcome: 'failed' })).toBeGreaterThanOrEqual(1);
      expect(t.logs.some((l) => l.event === 'webhook.delivery_failed' && l.endpoint === endpoint.body.id)).toBe(true);
    } finally {
      releaseRetries();
      failing = false;
    }
  });

  it('the Grafana dashboard in examples/ queries only metrics the server exposes', async () => {
    const dashboard = readFileSync(new URL('../../../examples/grafana/fundkit-dashboard.json', import.meta.url), 'utf8');
    const used = new Set([...dashboard.matchAll(/\b((?:fundkit|nodejs)_[a-z0-9_]+)/g)].map((m) => m[1]!.replace(/_(bucket|sum|count)$/, '')));
    expect(used.size).toBeGreaterThan(10);
    const exposed = await scrape(t, OPERATOR_KEY);
    expect([...used].filter((name) => !exposed.has(name))).toEqual([]);
  });

  it('/metrics wants the token from other machines: 401 with a wrong one', async () => {
    const res = await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${KEYS.alphaSecretTest}` } });
    expect(res.status).toBe(401);
    expect(await res.text()).not.toContain('fundkit_');
  });
});

describe.runIf(process.env.FUNDKIT_TEST_ENGINE === 'postgres')('the database goes away and comes back (PostgreSQL)', () => {
  let t: TestServer;
  let admin: pg.Client;
  let database = '';
  beforeAll(async () => {
    t = await startTestServer({ env: FAST_ENV });
    const url = new URL(t.server.config.databaseUrl!);
    database = url.pathname.slice(1);
    url.pathname = '/postgres';
    admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS true`);
    await admin.end();
    await t.close();
  });

  it('/readyz: 200 → 503 (the database check says why) → 200, /healthz 200 throughout', async () => {
    await expect.poll(async () => (await readyz(t)).status).toBe(200);
    await admin.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS false`);
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [database]);
    await expect.poll(async () => (await readyz(t)).status, { timeout: 10_000 }).toBe(503);
    const down = await readyz(t);
    expect(down.body.checks.database).toMatchObject({ status: 'fail', error: expect.any(String) });
    expect(down.body.checks.database!.error).not.toMatch(/postgres(ql)?:\/\/[^*]/);
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
    await admin.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS true`);
    await expect.poll(async () => (await readyz(t)).status, { timeout: 15_000 }).toBe(200);
  }, 40_000);
});

/** A Horizon that answers its root and any account (a funded treasury), and can be stopped and started on one port. */
function fakeHorizon() {
  // byte copies of the shared recorded responses (stellar-horizon/fixtures/README.md)
  // the recorded root is pubnet's: this Horizon serves testnet (the start-up check compares the passphrase)
  const root = { ...JSON.parse(readFileSync(new URL('./stellar-horizon/fixtures/root.json', import.meta.url), 'utf8')), network_passphrase: 'Test SDF Network ; September 2015' };
  const account = JSON.parse(readFileSync(new URL('./stellar-horizon/fixtures/account.json', import.meta.url), 'utf8'));
  let server: Server | null = null;
  let port = 0;
  const handler = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/hal+json' }).end(JSON.stringify(body));
    if (path === '/') return json(200, root);
    const id = /^\/accounts\/(G[A-Z2-7]{55})$/.exec(path)?.[1];
    if (id) return json(200, { ...account, id, account_id: id, balances: [{ balance: '10000.0000000', asset_type: 'native', buying_liabilities: '0.0000000', selling_liabilities: '0.0000000' }] });
    if (/\/payments$/.test(path)) return json(200, { _embedded: { records: [] }, _links: {} });
    return json(404, { type: 'https://stellar.org/horizon-errors/not_found', title: 'Resource Missing', status: 404 });
  };
  return {
    get url() { return `http://127.0.0.1:${port}`; },
    async start() {
      server = createServer(handler);
      await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    },
    async stop() {
      server?.closeAllConnections();
      await new Promise((resolve) => server?.close(resolve));
    },
  };
}

describe('the network goes away and comes back (Horizon on testnet)', () => {
  const horizon = fakeHorizon();
  let t: TestServer;
  beforeAll(async () => {
    await horizon.start();
    t = await startTestServer({ env: { ...FAST_ENV, FUNDKIT_STELLAR: 'testnet', FUNDKIT_HORIZON_URL: horizon.url, FUNDKIT_DEPOSIT_POOL_SIZE: '0' } });
  });
  afterAll(async () => {
    await t.close();
    await horizon.stop();
  });

  it('/readyz: 200 → 503 (the network check says why) → 200, and the requests to it are counted', async () => {
    await expect.poll(async () => (await readyz(t)).body.checks, { timeout: 15_000 }).toMatchObject({ network: { status: 'ok' }, follower: { status: 'ok' } });
    expect((await readyz(t)).status).toBe(200);
    await horizon.stop();
    await expect.poll(async () => (await readyz(t)).status, { timeout: 15_000 }).toBe(503);
    expect((await readyz(t)).body.checks.network).toMatchObject({ status: 'fail' });
    await horizon.start();
    await expect.poll(async () => (await readyz(t)).status, { timeout: 15_000 }).toBe(200);
    const metrics = await scrape(t, OPERATOR_KEY);
    expect(value(metrics, 'fundkit_network_requests_total', { method: 'latestLedger' })).toBeGreaterThan(0);
    expect(value(metrics, 'fundkit_network_errors_total', { method: 'latestLedger' })).toBeGreaterThan(0);
  }, 60_000);
});
