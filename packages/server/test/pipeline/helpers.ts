import { prepared } from '../../src/db/sql.js';
import { KEYS, startTestServer, type TestServer } from '../helpers/server.js';

export const FAST_ENV = { FUNDKIT_WORKER_INTERVAL_MS: '20', FUNDKIT_BACKFILL_INTERVAL_MS: '100', FUNDKIT_WORKER_BACKOFF_MS: '20' };

export function startPipelineServer(): Promise<TestServer> {
  return startTestServer({ env: FAST_ENV });
}

export const key = KEYS.alphaSecretTest;

export async function createIntent(t: TestServer, body: Record<string, unknown> = {}) {
  const res = await t.request('POST', '/v1/funding-intents', { key, body: { amount: '25.00', asset: 'USDC', ...body } });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.body;
}

export async function pay(t: TestServer, intentId: string, amount: string, asset = 'USDC', extra: Record<string, unknown> = {}) {
  const res = await t.request('POST', `/v1/test_helpers/funding-intents/${intentId}/payments`, { key, body: { amount, asset, ...extra } });
  if (res.status !== 201) throw new Error(`test payment failed: ${res.status} ${res.text}`);
  return res.body;
}

/** Polls the intent until `done` holds (the workers run on their own). */
export async function waitForIntent(t: TestServer, id: string, done: (intent: any) => boolean, timeoutMs = 5000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.request('GET', `/v1/funding-intents/${id}`, { key });
    if (done(res.body)) return res.body;
    if (Date.now() > until) throw new Error(`intent ${id} stuck in ${res.body.status}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5000, everyMs = 20): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`condition not met: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export async function history(t: TestServer, id: string) {
  return (await t.server.services.fundingIntents.history(id)).map((h) => h.to_status);
}

/** ids are time-ordered (lib/ids.ts): the order events were written in, on either engine */
const EVENT_PAYLOADS = prepared<{ payload: string }>((k) => k.selectFrom('events').select('payload').orderBy('id'));

export async function eventTypes(t: TestServer, intentId: string): Promise<string[]> {
  const rows = await t.server.sql.all(EVENT_PAYLOADS);
  return rows.map((r) => JSON.parse(r.payload)).filter((e) => e.data?.funding_intent_id === intentId).map((e) => e.type);
}
