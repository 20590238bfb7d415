/**
 * End to end: sandbox payment submitted → intent CREDITED → invoice.paid received by a local
 * webhook receiver. The server runs in-process with its shipped worker intervals.
 */
import { mkdtempSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from '@fundkit/server';
import { median, percentile } from './lib.js';

const KEY = 'sk_test_benchPipelineKey00000000001';
const INTENTS = Number(process.env.BENCH_INTENTS ?? 50);
const IN_FLIGHT = 10;

export interface PipelineFigures { intents: number; toCredited: number[]; toWebhook: number[]; workerIntervalMs: string }

export async function benchPipeline(): Promise<PipelineFigures> {
  const arrived = new Map<string, { at: number; createdAt: number }>();
  const receiver = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string; created_at: string; data: { funding_intent_id: string } };
      if (event.type === 'invoice.paid') arrived.set(event.data.funding_intent_id, { at: Date.now(), createdAt: Date.parse(event.created_at) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const dir = mkdtempSync(join(tmpdir(), 'fundkit-bench-pipeline-'));
  const server = await createServer({
    env: { FUNDKIT_DB: ':memory:', FUNDKIT_DATA_DIR: dir, LOG_LEVEL: 'silent', FUNDKIT_WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s', FUNDKIT_RATE_LIMIT: '100000' },
    bootstrap: { applications: [{ name: 'Pipeline', secret_keys: [KEY], settlement_address: 'GDVEU3DD4KOFECV66VIHWEZOYX4ZKR3WV27L464SIIPOU2IUI3JCZA57' }] },
  });
  const { url } = await server.listen(0, '127.0.0.1');
  const call = async (path: string, body: unknown) => {
    const res = await fetch(url + path, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (res.status >= 300) throw new Error(`${path} → ${res.status} ${await res.text()}`);
    return res.json() as Promise<{ id: string }>;
  };
  try {
    await call('/v1/webhooks', { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`, events: ['invoice.paid'] });
    const toCredited: number[] = [];
    const toWebhook: number[] = [];
    const one = async () => {
      const intent = await call('/v1/funding-intents', { amount: '25.00', asset: 'USDC' });
      const submitted = Date.now();
      await call(`/v1/test_helpers/funding-intents/${intent.id}/payments`, { amount: '25.00', asset: 'USDC' });
      const deadline = submitted + 60_000;
      while (!arrived.has(intent.id)) {
        if (Date.now() > deadline) throw new Error(`${intent.id}: no invoice.paid within 60 s`);
        await new Promise((r) => setTimeout(r, 5));
      }
      const got = arrived.get(intent.id)!;
      toCredited.push(got.createdAt - submitted);
      toWebhook.push(got.at - submitted);
    };
    for (let i = 0; i < INTENTS; i += IN_FLIGHT) await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, INTENTS - i) }, one));
    return { intents: INTENTS, toCredited, toWebhook, workerIntervalMs: process.env.FUNDKIT_WORKER_INTERVAL_MS ?? '1000 (default)' };
  } finally {
    await server.close();
    receiver.closeAllConnections();
    await new Promise((r) => receiver.close(r));
  }
}

export const summary = (values: number[]) => ({ p50: percentile(values, 50), p95: percentile(values, 95), p99: percentile(values, 99), median: median(values) });
