/**
 * Faulty receivers: one hangs (the real 10 s timeout), one resets connections, one answers 500,
 * beside a healthy one. The healthy endpoint still gets every event promptly; the faulty ones
 * lose nothing: once they recover, retries deliver every event.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../packages/server/test/helpers/server.js';
import { createIntent, KEYS, must, startServer, until } from './harness.js';
import { chainAt } from '../../packages/server/test/crash/invariants.js';
import { checkDatabase } from './invariants.js';
import { startFaultyReceiver, type FaultyReceiver, type Mode } from './receiver.js';
import { rows } from '../../packages/server/test/helpers/raw-sql.js';

const key = KEYS.alpha.test.secret;
const EVENTS = 40;
/** the server's attempt timeout, which a hanging receiver makes every attempt to it last */
const HANG_TIMEOUT_MS = 10_000;
let t: TestServer;
const receivers: Partial<Record<Mode, FaultyReceiver>> = {};

beforeAll(async () => {
  // retries come quickly; the attempt timeout stays the real one (10 s)
  t = await startServer({ FUNDKIT_WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s,1s,1s,1s,1s,1s,1s,1s' }, { webhooks: { pollIntervalMs: 50 } });
  for (const mode of ['ok', 'hang', 'reset', 'fail'] as const) {
    receivers[mode] = await startFaultyReceiver(mode);
    await must(t, { method: 'POST', path: '/v1/webhooks', key, body: { url: receivers[mode]!.url, events: ['payment.pending'] } }, 201);
  }
});
afterAll(async () => {
  await t?.close();
  for (const r of Object.values(receivers)) await r!.close();
});

describe('webhook receivers that hang, reset or fail', () => {
  it('do not hold up a healthy endpoint, and lose nothing once they recover', async () => {
    // the faulty endpoints get their first attempts in before the burst
    const first = await createIntent(t, key);
    await until(async () => receivers.hang!.requests.length, (n) => n > 0, 5_000);
    const ids = [first.id];
    for (let i = 1; i < EVENTS; i++) ids.push((await createIntent(t, key)).id);
    const events = async () => (await rows<{ id: string }>(t.server.sql, "SELECT id FROM events WHERE type = 'payment.pending'")).map((r) => r.id);
    // payment.pending comes when an intent's deposit account is active: at once from the warm pool,
    // a ledger later for an intent that found it empty (more often on PostgreSQL, whose pool refills slower)
    await until(async () => (await events()).length, (n) => n === EVENTS, 10_000);

    // a healthy endpoint is not queued behind the hanging one's 10 s timeouts: each event reaches it
    // inside one such timeout of being recorded (queued behind a hung attempt, it would wait ≥ 10 s)
    await until(async () => receivers.ok!.delivered.size, (n) => n === EVENTS, 30_000);
    const recordedAt = new Map((await rows<{ id: string; created_at: string }>(t.server.sql, "SELECT id, created_at FROM events WHERE type = 'payment.pending'"))
      .map((e) => [e.id, Date.parse(e.created_at)]));
    const waits = receivers.ok!.requests.map((r) => r.at - recordedAt.get(r.eventId)!);
    expect(waits).toHaveLength(EVENTS);
    expect(Math.max(...waits)).toBeLessThan(HANG_TIMEOUT_MS);
    for (const mode of ['hang', 'reset', 'fail'] as const) {
      expect(receivers[mode]!.requests.length, mode).toBeGreaterThan(0);
      expect(receivers[mode]!.delivered.size, mode).toBe(0);
    }

    // recovery: every event reaches every endpoint at least once, by retries alone
    for (const mode of ['hang', 'reset', 'fail'] as const) receivers[mode]!.mode = 'ok';
    for (const mode of ['hang', 'reset', 'fail'] as const) {
      await until(async () => receivers[mode]!.delivered.size, (n) => n === EVENTS, 30_000);
      expect([...receivers[mode]!.delivered].sort(), mode).toEqual((await events()).sort());
    }
    // the last answers are recorded just after the receiver sent them
    const states = async () => (await rows<{ status: string; n: number }>(t.server.sql, 'SELECT status, COUNT(*) AS n FROM webhook_deliveries GROUP BY status'))
      .map((r) => ({ status: r.status, n: Number(r.n) }));
    await until(async () => JSON.stringify(await states()), (s) => s === JSON.stringify([{ status: 'SUCCEEDED', n: EVENTS * 4 }]), 15_000);
    expect(await checkDatabase(t.server.sql, chainAt(`${t.url}/sandbox/horizon`))).toEqual([]);
  });
});
