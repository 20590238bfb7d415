/**
 * Races over real sockets: one Idempotency-Key, one intent; one refundable payment, one refund;
 * competing quote accepts, one lock. The database is read afterwards, not just the responses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../packages/server/test/helpers/server.js';
import { createIntent, idem, KEYS, must, pay, send, startServer, until } from './harness.js';
import { chainAt, unrecordedPayments } from '../../packages/server/test/crash/invariants.js';
import { checkDatabase } from './invariants.js';
import { rows, value } from '../../packages/server/test/helpers/raw-sql.js';

const key = KEYS.alpha.test.secret;
let t: TestServer;
beforeAll(async () => {
  t = await startServer();
});
afterAll(async () => {
  await t?.close();
});

const count = async (text: string, ...args: unknown[]) => Number(await value(t.server.sql, text, ...args));

describe('concurrency', () => {
  it('100 concurrent creates with one Idempotency-Key make one intent', async () => {
    const idempotencyKey = idem();
    const body = { amount: '25.00', asset: 'USDC', reference: idempotencyKey.slice(0, 60) };
    const all = await Promise.all(Array.from({ length: 100 }, () =>
      send(t, { method: 'POST', path: '/v1/funding-intents', key, body, headers: { 'idempotency-key': idempotencyKey } })));
    expect(all.flatMap((r) => r.problems)).toEqual([]);
    const created = all.filter((r) => r.status === 201);
    // the ones that raced the first see it in progress (409, retryable) or its replay
    expect(all.every((r) => r.status === 201 || (r.status === 409 && r.body.error.code === 'IDEMPOTENCY_REQUEST_IN_PROGRESS'))).toBe(true);
    expect(created.length).toBeGreaterThan(0);
    expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
    expect(await count('SELECT COUNT(*) FROM funding_intents WHERE reference = ?', body.reference)).toBe(1);
  });

  it('one Idempotency-Key with two different bodies at once: one intent, the other body refused', async () => {
    const idempotencyKey = idem();
    const bodies = [{ amount: '25.00', asset: 'USDC', reference: `a-${idempotencyKey}`.slice(0, 64) }, { amount: '26.00', asset: 'USDC', reference: `b-${idempotencyKey}`.slice(0, 64) }];
    const all = await Promise.all(Array.from({ length: 60 }, (_, i) =>
      send(t, { method: 'POST', path: '/v1/funding-intents', key, body: bodies[i % 2], headers: { 'idempotency-key': idempotencyKey } })));
    expect(all.flatMap((r) => r.problems)).toEqual([]);
    const codes = new Set(all.filter((r) => r.status !== 201).map((r) => `${r.status} ${r.body.error.code}`));
    expect([...codes].every((c) => c === '409 IDEMPOTENCY_REQUEST_IN_PROGRESS' || c === '422 IDEMPOTENCY_KEY_REUSED')).toBe(true);
    expect(new Set(all.filter((r) => r.status === 201).map((r) => r.body.id)).size).toBe(1);
    expect(await count('SELECT COUNT(*) FROM funding_intents WHERE reference IN (?, ?)', bodies[0]!.reference, bodies[1]!.reference)).toBe(1);
  });

  it('50 concurrent refunds of one payment create one refund', async () => {
    const intent = await createIntent(t, key);
    // an overpayment: the intent is credited and the 5 USDC surplus stays refundable
    await pay(t, key, intent.id, '30');
    await until(() => send(t, { method: 'GET', path: `/v1/funding-intents/${intent.id}`, key }), (g) => g.body.status === 'CREDITED');
    const payment = (await must(t, { method: 'GET', path: `/v1/funding-intents/${intent.id}/payments`, key }, 200)).data[0];
    expect(payment.refundable_amount).toBe('5.0000000');
    const all = await Promise.all(Array.from({ length: 50 }, () =>
      send(t, { method: 'POST', path: `/v1/funding-intents/${intent.id}/payments/${payment.id}/refunds`, key, body: { reason: 'OVERPAYMENT' }, headers: { 'idempotency-key': idem() } })));
    expect(all.flatMap((r) => r.problems)).toEqual([]);
    expect(all.filter((r) => r.status === 201)).toHaveLength(1);
    // the losers: in progress (409) or nothing left (422) once it completed
    expect(all.filter((r) => r.status !== 201).every((r) => r.status === 409 || r.status === 422)).toBe(true);
    expect(await count('SELECT COUNT(*) FROM refunds WHERE payment_id = ?', payment.id)).toBe(1);
    await until(() => send(t, { method: 'GET', path: `/v1/refunds?payment_id=${payment.id}`, key }), (g) => g.body.data[0]?.status === 'COMPLETED');
    expect(await checkDatabase(t.server.sql, chainAt(`${t.url}/sandbox/horizon`))).toEqual([]);
  });

  it('competing accepts of an intent\'s quotes leave exactly one locked', async () => {
    const intent = await createIntent(t, key);
    const options = (await must(t, { method: 'GET', path: `/v1/funding_intents/${intent.id}/options`, key }, 200)).options as { id: string }[];
    expect(options.length).toBeGreaterThan(1);
    // every option accepted 10 times at once, each with its own key
    const attempts = options.flatMap((o) => Array.from({ length: 10 }, () => o.id));
    const all = await Promise.all(attempts.map((id) => send(t, { method: 'POST', path: `/v1/quotes/${id}/accept`, key, headers: { 'idempotency-key': idem() } })));
    expect(all.flatMap((r) => r.problems)).toEqual([]);
    const winners = new Set(all.filter((r) => r.status === 200).map((r) => r.body.id));
    expect(all.filter((r) => r.status !== 200).every((r) => r.status === 409 && r.body.error.code === 'quote_not_selectable')).toBe(true);
    const locked = (await rows<{ id: string }>(t.server.sql, "SELECT id FROM quotes WHERE funding_intent_id = ? AND status = 'LOCKED'", intent.id)).map((r) => r.id);
    expect(locked).toHaveLength(1);
    expect([...winners]).toEqual(locked);
    const view = await must(t, { method: 'GET', path: `/v1/funding-intents/${intent.id}`, key }, 200);
    expect(view.quote.id).toBe(locked[0]);
  });

  it('cancel racing a payment: either the payment wins (cancel 409) or the money stays refundable', async () => {
    const intents = await Promise.all(Array.from({ length: 10 }, () => createIntent(t, key)));
    const raced = await Promise.all(intents.map(async (intent) => {
      const [cancel, paid] = await Promise.all([
        send(t, { method: 'POST', path: `/v1/funding-intents/${intent.id}/cancel`, key }),
        send(t, { method: 'POST', path: `/v1/test_helpers/funding-intents/${intent.id}/payments`, key, body: { amount: '25', asset: 'USDC' } }),
      ]);
      return { id: intent.id as string, cancel, paid };
    }));
    expect(raced.flatMap((r) => [...r.cancel.problems, ...r.paid.problems])).toEqual([]);
    for (const { id, cancel, paid } of raced) {
      const final = await until(() => send(t, { method: 'GET', path: `/v1/funding-intents/${id}`, key }), (g) => ['CREDITED', 'CANCELLED'].includes(g.body.status));
      const payments = (await must(t, { method: 'GET', path: `/v1/funding-intents/${id}/payments`, key }, 200)).data;
      if (paid.status === 409) {
        // cancelled while CREATED (the warm pool was short): its deposit account was never
        // created, so the helper, which waited for it, could pay nothing; or cancelled unpaid
        // before the payment landed: its deposit account was retired at once, so the network
        // refused the payment (nothing reached us, nothing to refund). Either is a final answer
        expect(paid.body.error, id).toMatchObject({ code: 'CONFLICT', retryable: false });
        expect(paid.body.error.message, id).toMatch(/CANCELLED funding intent is PROVISIONING|op_no_destination/);
        expect(cancel.status, id).toBe(200);
        expect(final.body.status, id).toBe('CANCELLED');
        expect(payments, id).toHaveLength(0);
        continue;
      }
      expect(paid.status, id).toBe(201);
      if (final.body.status === 'CANCELLED') {
        expect(cancel.status, id).toBe(200);
        // nothing sent to us is ever ignored: the late payment is recorded (once the ledger's
        // record is observed, which may follow the cancel) and refundable
        const late = await until(() => must(t, { method: 'GET', path: `/v1/funding-intents/${id}/payments`, key }, 200), (p) => p.data[0]?.refundable_amount === '25.0000000');
        expect(late.data, id).toHaveLength(1);
      } else {
        expect(payments, id).toHaveLength(1);
        expect(cancel.status, id).toBe(409);
      }
    }
    // the reconciliation reads the chain beside the database: first every payment the chain holds
    // is recorded (the follower may still be on its last ledger; one never recorded fails here)
    const chain = chainAt(`${t.url}/sandbox/horizon`);
    await until(() => unrecordedPayments(t.server.sql, chain), (n) => n === 0);
    expect(await checkDatabase(t.server.sql, chain)).toEqual([]);
  });
});
