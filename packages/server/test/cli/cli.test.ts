import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyWebhook } from '@fundkit/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliIo } from '../../src/cli/index.js';
import { KEYS, SETTLEMENT_ADDRESS, startTestServer, type TestServer } from '../helpers/server.js';
import { FAST_ENV } from '../pipeline/helpers.js';

let t: TestServer;
const key = KEYS.alphaSecretTest;

beforeAll(async () => {
  t = await startTestServer({ env: { ...FAST_ENV, FUNDKIT_WEBHOOK_RETRY_SCHEDULE: '1s' } });
});
afterAll(() => t.close());

/** Runs the CLI in-process against the test server, capturing what it prints. */
function cli(argv: string[], extra: Partial<CliIo> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: (s) => void out.push(s), stderr: (s) => void err.push(s),
    env: { FUNDKIT_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'fundkit-cli-')) }, cwd: tmpdir(), pollMs: 50, ...extra,
  };
  const done = runCli([...argv, '--api-base', t.url, '--api-key', key], io);
  return { done, stdout: () => out.join(''), stderr: () => err.join('') };
}

describe('fundkit trigger', () => {
  it('creates a paid intent and waits for payment.completed', async () => {
    const run = cli(['trigger', 'payment.completed']);
    expect(await run.done).toBe(0);
    const id = /Event (evt_\w+) \(payment\.completed\)/.exec(run.stdout())?.[1];
    expect(id, run.stdout()).toBeTruthy();
    const event = await t.request('GET', `/v1/events/${id}`, { key });
    expect(event.body.type).toBe('payment.completed');
    expect(run.stdout()).toContain('→ CREDITED');
  });

  it('--json prints one document: the event and the intent', async () => {
    const run = cli(['trigger', 'refund.created', '--json']);
    expect(await run.done, run.stderr()).toBe(0);
    const doc = JSON.parse(run.stdout());
    expect(doc.event.type).toBe('refund.created');
    expect(doc.funding_intent.status).toBe('CREDITED');
  });

  it('invoice.overdue comes from an expired intent', async () => {
    const run = cli(['trigger', 'invoice.overdue', '--json']);
    expect(await run.done, run.stderr()).toBe(0);
    expect(JSON.parse(run.stdout()).funding_intent.status).toBe('EXPIRED');
  });

  it('refuses an event it cannot produce, listing the ones it can', async () => {
    const run = cli(['trigger', 'refund.failed']);
    expect(await run.done).toBe(2);
    expect(run.stderr()).toContain('payment.completed');
  });
});

describe('fundkit pay', () => {
  it('pays an intent through the test helper and follows it to CREDITED', async () => {
    const intent = await t.request('POST', '/v1/funding-intents', { key, body: { amount: '10.00', asset: 'USDC' } });
    const run = cli(['pay', intent.body.id, '--amount', '10', '--json']);
    expect(await run.done, run.stderr()).toBe(0);
    const doc = JSON.parse(run.stdout());
    expect(doc.payment.transaction_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(doc.funding_intent).toMatchObject({ status: 'CREDITED', received_amount: '10.0000000' });
  });

  it('a partial payment rests at PARTIALLY_FUNDED', async () => {
    const intent = await t.request('POST', '/v1/funding-intents', { key, body: { amount: '10.00', asset: 'USDC' } });
    const run = cli(['pay', intent.body.id, '--amount', '4']);
    expect(await run.done, run.stderr()).toBe(0);
    expect(run.stdout()).toContain(`Intent ${intent.body.id}: PARTIALLY_FUNDED, received 4.0000000 of 10.0000000 USDC`);
  });

  it('usage and API errors are readable, with exit codes 2 and 1', async () => {
    const missing = cli(['pay', 'fi_nope']);
    expect(await missing.done).toBe(2);
    const unknown = cli(['pay', 'fi_doesnotexist', '--amount', '1']);
    expect(await unknown.done).toBe(1);
    expect(unknown.stderr()).toMatch(/404 NOT_FOUND/);
    const typo = cli(['pay', 'fi_x', '--amuont', '1']);
    expect(await typo.done).toBe(2);
    expect(typo.stderr()).toContain('--amuont');
  });

  it('refuses an intent that takes no more payments (CREDITED), saying the money would rest unapplied and refundable', async () => {
    const intent = await t.request('POST', '/v1/funding-intents', { key, body: { amount: '5.00', asset: 'USDC' } });
    expect(await cli(['pay', intent.body.id, '--amount', '5']).done).toBe(0);
    const again = cli(['pay', intent.body.id, '--amount', '5']);
    expect(await again.done).toBe(1);
    expect(again.stderr()).toContain(`intent ${intent.body.id} is CREDITED: it takes no more payments`);
    expect(again.stderr()).toContain('UNAPPLIED');
    expect(again.stderr()).toContain('refundable');
    expect(again.stderr()).toContain('--force');
    // nothing was sent
    expect((await t.request('GET', `/v1/funding-intents/${intent.body.id}/payments`, { key })).body.data).toHaveLength(1);
  });

  it('a key the server does not know: says where the key came from and where keys are', async () => {
    const err: string[] = [];
    const code = await runCli(['pay', 'fi_x', '--amount', '1', '--api-base', t.url], {
      stdout: () => {}, stderr: (s) => void err.push(s), env: { FUNDKIT_API_KEY: 'sk_test_notAKeyThisServerKnows0001' }, cwd: tmpdir(),
    });
    expect(code).toBe(1);
    const said = err.join('');
    expect(said).toContain('401');
    expect(said).toContain('the key …0001 came from FUNDKIT_API_KEY');
    expect(said).toContain('.fundkit/sandbox-keys.json');
    expect(said).toContain('/dashboard/#/applications');
  });

  it("another application's intent: says the key's application cannot see it and which key was used", async () => {
    const other = await t.request('POST', '/v1/funding-intents', { key: KEYS.betaSecretTest, body: { amount: '5.00', asset: 'USDC', destination_address: SETTLEMENT_ADDRESS } });
    expect(other.status).toBe(201);
    const run = cli(['pay', other.body.id, '--amount', '5']);
    expect(await run.done).toBe(1);
    expect(run.stderr()).toContain('404');
    expect(run.stderr()).toContain(`the key …${key.slice(-4)} came from --api-key: an object of another application is not found with it`);
  });

  it('without any key it says where keys come from', async () => {
    const out: string[] = [];
    const code = await runCli(['pay', 'fi_x', '--amount', '1'], { stdout: () => {}, stderr: (s) => void out.push(s), env: {}, cwd: mkdtempSync(join(tmpdir(), 'nokeys-')) });
    expect(code).toBe(2);
    expect(out.join('')).toContain('FUNDKIT_API_KEY');
  });
});

describe('fundkit listen', () => {
  let receiver: Server;
  let receiverUrl: string;
  const bodies: { body: string; headers: Record<string, string | string[] | undefined> }[] = [];
  beforeAll(async () => {
    receiver = createHttpServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c)).on('end', () => {
        bodies.push({ body, headers: req.headers });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    receiverUrl = `http://localhost:${(receiver.address() as AddressInfo).port}/webhooks`;
  });
  afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

  it('registers the URL, prints its secret, shows each delivery, and disables the endpoint on exit', async () => {
    const controller = new AbortController();
    const configDir = mkdtempSync(join(tmpdir(), 'fundkit-listen-'));
    const run = cli(['listen', '--forward-to', receiverUrl, '--events', 'payment.completed'], { signal: controller.signal, env: { FUNDKIT_CONFIG_DIR: configDir } });
    const secret = await until(() => /secret: (whsec_\S+)/.exec(run.stdout())?.[1]);
    const endpointId = /endpoint (we_\w+)/.exec(run.stdout())![1]!;
    const pay = cli(['trigger', 'payment.completed']);
    expect(await pay.done).toBe(0);
    await until(() => (/<-- \[200\] payment\.completed attempt 1/.test(run.stdout()) ? true : undefined));
    controller.abort();
    expect(await run.done).toBe(0);
    expect(run.stdout()).toMatch(/--> payment\.completed \[evt_/);
    // the receiver got exactly what the server signed, and only the filtered type
    const events = await Promise.all(bodies.map((b) => verifyWebhook(b.body, b.headers as Record<string, string>, secret)));
    expect(events.map((e) => e.type)).toEqual(['payment.completed']);
    expect((await t.request('GET', `/v1/webhooks/${endpointId}`, { key })).body.enabled).toBe(false);

    // a second session reuses the endpoint and its secret (the receiver's configuration stays valid)
    const again = new AbortController();
    const second = cli(['listen', '--forward-to', receiverUrl], { signal: again.signal, env: { FUNDKIT_CONFIG_DIR: configDir } });
    await until(() => (second.stdout().includes(secret) ? true : undefined));
    expect((await t.request('GET', `/v1/webhooks/${endpointId}`, { key })).body.enabled).toBe(true);
    again.abort();
    expect(await second.done).toBe(0);
  });
});

describe('fundkit listen at a URL your code registered', () => {
  it('watches that endpoint instead of adding a second one with another secret, and leaves it enabled', async () => {
    const receiver = createHttpServer((req, res) => void req.resume().on('end', () => res.writeHead(200).end('ok')));
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const url = `http://localhost:${(receiver.address() as AddressInfo).port}/webhooks/fundkit`;
    // what the example shop does on start
    const shop = await t.request('POST', '/v1/webhooks', { key, body: { url, events: ['payment.completed'], description: 'node-backend example' } });
    const controller = new AbortController();
    const run = cli(['listen', '--forward-to', url], { signal: controller.signal });
    await until(() => (run.stdout().includes('Ready.') ? true : undefined));
    expect(run.stdout()).toContain(`is already endpoint ${shop.body.id}, registered by your code`);
    expect(await cli(['trigger', 'payment.completed']).done).toBe(0);
    await until(() => (/<-- \[200\] payment\.completed attempt 1/.test(run.stdout()) ? true : undefined));
    controller.abort();
    expect(await run.done).toBe(0);
    const atUrl = (await t.request('GET', '/v1/webhooks?limit=100', { key })).body.data.filter((e: { url: string }) => e.url === url);
    expect(atUrl.map((e: { id: string; enabled: boolean }) => [e.id, e.enabled])).toEqual([[shop.body.id, true]]);
    await t.request('DELETE', `/v1/webhooks/${shop.body.id}`, { key });
    await new Promise<void>((r) => receiver.close(() => r()));
  });
});

describe('fundkit listen, refused', () => {
  it('shows a failed attempt with the receiver\'s answer and the retry time', async () => {
    const receiver = createHttpServer((_req, res) => void res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"code":"signature_mismatch"}}'));
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const controller = new AbortController();
    const url = `http://localhost:${(receiver.address() as AddressInfo).port}/hooks`;
    const run = cli(['listen', '--forward-to', url, '--events', 'payment.completed'], { signal: controller.signal });
    await until(() => (run.stdout().includes('Ready.') ? true : undefined));
    expect(await cli(['trigger', 'payment.completed']).done).toBe(0);
    await until(() => (/<-- \[400\] payment\.completed attempt 1 in \d+ ms, retry at \d\d:\d\d:\d\d/.test(run.stdout()) ? true : undefined));
    await until(() => (run.stdout().includes('{"error":{"code":"signature_mismatch"}}') ? true : undefined));
    controller.abort();
    expect(await run.done).toBe(0);
    await new Promise<void>((r) => receiver.close(() => r()));
  });
});

async function until<T>(read: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}
