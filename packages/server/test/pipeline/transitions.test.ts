import { rows, run, value } from '../helpers/raw-sql.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUNDING_INTENT_STATUSES, canTransition, eventFor } from '../../src/records/intent-transitions.js';
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
async function intentIn(status: string): Promise<string> {
  const id = `fi_walk_${status}_${Math.random().toString(36).slice(2, 10)}`;
  const [row] = await rows(t.server.sql, 'SELECT * FROM funding_intents WHERE id = ?', template.id);
  const copy = { ...row, id, status };
  const keys = Object.keys(copy);
  await run(t.server.sql, `INSERT INTO funding_intents (${keys.join(', ')}) VALUES (${keys.map(() => '?').join(', ')})`, ...Object.values(copy));
  return id;
}

const historyCount = async (id: string) => Number(await value(t.server.sql, 'SELECT COUNT(*) FROM funding_intent_status_history WHERE funding_intent_id = ?', id));
const eventCount = async (id: string) => (await rows<{ payload: string }>(t.server.sql, 'SELECT payload FROM events'))
  .filter((e) => JSON.parse(e.payload).data?.funding_intent_id === id).length;

describe('the one transition table', () => {
  const machine = () => t.server.services.pipeline.pipeline.machine;

  it('allows every legal transition, with its history row and its event in one go', async () => {
    let legal = 0;
    for (const from of FUNDING_INTENT_STATUSES) {
      for (const to of FUNDING_INTENT_STATUSES) {
        if (!canTransition(from, to)) continue;
        legal++;
        const id = await intentIn(from);
        await machine().transition(id, to, 'walk');
        expect((await t.server.services.fundingIntents.history(id)).at(-1)).toMatchObject({ from_status: from, to_status: to });
        const expected = (eventFor(to) ? 1 : 0) + (to === 'EXPIRED' ? 1 : 0);
        expect(await eventCount(id), `${from} → ${to}`).toBe(expected);
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
        const id = await intentIn(from);
        await expect(machine().transition(id, to, 'walk'), `${from} → ${to}`).rejects.toThrow(/illegal funding intent transition/);
        expect((await t.server.services.pipeline.pipeline.repos.fundingIntents.findById(id))!.status).toBe(from);
        expect(await historyCount(id)).toBe(0);
        expect(await eventCount(id)).toBe(0);
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
