import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUNDING_INTENT_STATUSES, canTransition, eventFor } from '../../src/resources/funding-intents/transitions.js';
import type { TestServer } from '../helpers/server.js';
import { createIntent, startPipelineServer } from './helpers.js';

let t: TestServer;
let template: any;
beforeAll(async () => {
  t = await startPipelineServer();
  template = await createIntent(t);
});
afterAll(() => t.close());

/** A fresh intent row in `status`, copied from a real one (its deposit account is shared; never paid). */
function intentIn(status: string): string {
  const id = `fi_walk_${status}_${Math.random().toString(36).slice(2, 10)}`;
  const row = t.server.db.prepare('SELECT * FROM funding_intents WHERE id = ?').get(template.id) as Record<string, unknown>;
  const copy = { ...row, id, status };
  const keys = Object.keys(copy);
  t.server.db.prepare(`INSERT INTO funding_intents (${keys.join(', ')}) VALUES (${keys.map((k) => `@${k}`).join(', ')})`).run(copy);
  return id;
}

const count = (sql: string, id: string) => Number(t.server.db.prepare(sql).pluck().get(id));
const historyCount = (id: string) => count('SELECT COUNT(*) FROM funding_intent_status_history WHERE funding_intent_id = ?', id);
const eventCount = (id: string) => count("SELECT COUNT(*) FROM events WHERE json_extract(payload, '$.data.funding_intent_id') = ?", id);

describe('the one transition table', () => {
  const machine = () => t.server.services.pipeline.pipeline.machine;

  it('allows every legal transition, with its history row and its event in one go', async () => {
    let legal = 0;
    for (const from of FUNDING_INTENT_STATUSES) {
      for (const to of FUNDING_INTENT_STATUSES) {
        if (!canTransition(from, to)) continue;
        legal++;
        const id = intentIn(from);
        await machine().transition(id, to, 'walk');
        expect((await t.server.services.fundingIntents.history(id)).at(-1)).toMatchObject({ from_status: from, to_status: to });
        const expected = (eventFor(to) ? 1 : 0) + (to === 'EXPIRED' ? 1 : 0);
        expect(eventCount(id), `${from} → ${to}`).toBe(expected);
      }
    }
    expect(legal).toBeGreaterThan(20);
  });

  it('refuses every illegal transition and changes nothing', async () => {
    let illegal = 0;
    for (const from of FUNDING_INTENT_STATUSES) {
      for (const to of FUNDING_INTENT_STATUSES) {
        if (canTransition(from, to)) continue;
        illegal++;
        const id = intentIn(from);
        await expect(machine().transition(id, to, 'walk'), `${from} → ${to}`).rejects.toThrow(/illegal funding intent transition/);
        expect((await t.server.services.pipeline.pipeline.repos.fundingIntents.findById(id))!.status).toBe(from);
        expect(historyCount(id)).toBe(0);
        expect(eventCount(id)).toBe(0);
      }
    }
    expect(illegal).toBeGreaterThan(150);
  });

  it('is exactly the diagram of DESIGN §4 (every allowed move listed, nothing else)', () => {
    const table = Object.fromEntries(FUNDING_INTENT_STATUSES.map((from) => [from, FUNDING_INTENT_STATUSES.filter((to) => canTransition(from, to))]));
    expect(table).toEqual({
      CREATED: ['AWAITING_PAYMENT', 'FAILED', 'CANCELLED'],
      AWAITING_PAYMENT: ['PARTIALLY_FUNDED', 'PAYMENT_DETECTED', 'EXPIRED', 'CANCELLED'],
      // an underpayment refunded in full: the payer gave up (DESIGN §4)
      PARTIALLY_FUNDED: ['PARTIALLY_FUNDED', 'PAYMENT_DETECTED', 'REFUND_PENDING', 'EXPIRED'],
      PAYMENT_DETECTED: ['PAYMENT_CONFIRMED', 'FAILED'],
      PAYMENT_CONFIRMED: ['ROUTING', 'SETTLING', 'FAILED'],
      ROUTING: ['SETTLING', 'FAILED'],
      SETTLING: ['SETTLED', 'FAILED'],
      SETTLED: ['CREDITED'],
      CREDITED: [],
      FAILED: ['REFUND_PENDING'],
      REFUND_PENDING: ['FAILED', 'REFUNDED'],
      REFUNDED: [],
      EXPIRED: ['REFUND_PENDING'],
      CANCELLED: [],
    });
    // REFUND_PENDING and REFUNDED emit no payment.* event (DESIGN §8 lists none); refund.* events tell it
    expect(eventFor('REFUND_PENDING')).toBeNull();
    expect(eventFor('REFUNDED')).toBeNull();
  });

  it('has no way out of the final states', () => {
    for (const final of ['CREDITED', 'REFUNDED', 'CANCELLED'] as const) {
      expect(FUNDING_INTENT_STATUSES.filter((to) => canTransition(final, to))).toEqual([]);
    }
  });
});
