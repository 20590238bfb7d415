/** The outbox wakes its listeners only once the event row has committed, and never on a rollback. */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connection.js';
import { insertEvent, onOutboxWrite } from '../../src/db/outbox.js';
import { prepared, SqliteSql } from '../../src/db/sql.js';

const EVENTS = prepared<{ n: number }>((k) => k.selectFrom('events').select((eb) => eb.fn.countAll<number>().as('n')));
const event = { type: 'refund.created', applicationId: 'app_x', environment: 'test' as const, data: {} };
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('the outbox wake-up', () => {
  it('fires after COMMIT, seeing the row, and not at all when the transaction rolls back', async () => {
    const sql = SqliteSql.of(openDatabase(':memory:'));
    const seen: number[] = [];
    onOutboxWrite(sql, () => { void sql.get(EVENTS).then((row) => seen.push(Number(row!.n))); });
    await sql.transaction(async () => {
      await insertEvent(sql, event);
      await turn();
      await turn();
      // still inside the transaction: nobody was woken yet
      expect(seen).toEqual([]);
    });
    await turn();
    await turn();
    expect(seen).toEqual([1]);
    await expect(sql.transaction(async () => {
      await insertEvent(sql, event);
      throw new Error('rolled back');
    })).rejects.toThrow('rolled back');
    await turn();
    await turn();
    expect(seen).toEqual([1]);
  });
});
