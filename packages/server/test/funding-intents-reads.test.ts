/**
 * The read path keeps rows and presented intents between reads (repo row cache, read model
 * cache); every change to what the wire shape shows must still show at once, in a list and in a
 * retrieve, even when made outside the services (plain SQL, as another process would).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bigRows, run, value } from './helpers/raw-sql.js';
import { KEYS, startTestServer, type TestServer } from './helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const get = (path: string) => t.request('GET', path, { key: KEYS.alphaSecretTest });

async function createIntents(n: number, reference: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await t.request('POST', '/v1/funding-intents', { key: KEYS.alphaSecretTest, body: { amount: `${i + 1}`, asset: 'USDC', reference } });
    expect(res.status).toBe(201);
    ids.push(res.body.id);
  }
  return ids;
}

/** The list of `reference` and each intent retrieved: both must agree (same views) and are returned. */
async function read(reference: string, ids: string[]) {
  const list = await get(`/v1/funding-intents?reference=${reference}&limit=10`);
  expect(list.status).toBe(200);
  const byId = new Map<string, any>(list.body.data.map((fi: any) => [fi.id, fi]));
  for (const id of ids) {
    const one = await get(`/v1/funding-intents/${id}`);
    expect(one.status).toBe(200);
    expect(byId.get(id)).toEqual(one.body);
  }
  return byId;
}

describe('cached reads', () => {
  it('show a change to the intent row made with plain SQL at once', async () => {
    const ids = await createIntents(3, 'reads_row');
    const before = await read('reads_row', ids);
    await read('reads_row', ids); // cached now
    await run(t.server.sql, "UPDATE funding_intents SET status = 'EXPIRED', received_amount = 5000000, metadata = '{\"a\":1}' WHERE id = ?", ids[1]!);
    const after = await read('reads_row', ids);
    expect(after.get(ids[1]!).status).toBe('EXPIRED');
    expect(after.get(ids[1]!).received_amount).toBe('0.5000000');
    expect(after.get(ids[1]!).metadata).toEqual({ a: 1 });
    expect(after.get(ids[0]!)).toEqual(before.get(ids[0]!));
    expect(after.get(ids[2]!)).toEqual(before.get(ids[2]!));
    // and back: the earlier row again reads as before
    await run(t.server.sql, "UPDATE funding_intents SET status = 'AWAITING_PAYMENT', received_amount = 0, metadata = '{}' WHERE id = ?", ids[1]!);
    expect((await read('reads_row', ids)).get(ids[1]!)).toEqual(before.get(ids[1]!));
  });

  it('show a row replaced under its id with plain SQL (deleted and inserted again) at once', async () => {
    const ids = await createIntents(2, 'reads_replace');
    const before = await read('reads_replace', ids);
    await read('reads_replace', ids); // cached now
    const [row] = await bigRows(t.server.sql, 'SELECT * FROM funding_intents WHERE id = ?', ids[0]!);
    // every column copied except the metadata, and the version left to the database, as any plain INSERT would
    const copy = { ...row!, metadata: '{"replaced":true}', row_version: 0 };
    const columns = Object.keys(copy);
    const placeholders = columns.map(() => '?').join(', ');
    // SQLite deletes and inserts; PostgreSQL has no REPLACE, and its upsert rewrites every column
    const replace = t.server.sql.dialect === 'sqlite'
      ? `INSERT OR REPLACE INTO funding_intents (${columns.join(', ')}) VALUES (${placeholders})`
      : `INSERT INTO funding_intents (${columns.join(', ')}) VALUES (${placeholders}) ON CONFLICT (id) DO UPDATE SET ${columns.map((c) => `${c} = excluded.${c}`).join(', ')}`;
    await run(t.server.sql, replace, ...Object.values(copy));
    const after = await read('reads_replace', ids);
    expect(after.get(ids[0]!).metadata).toEqual({ replaced: true });
    expect(after.get(ids[1]!)).toEqual(before.get(ids[1]!));
  });

  it('show a deposit account or registration change at once', async () => {
    const ids = await createIntents(2, 'reads_account');
    await read('reads_account', ids);
    const cached = await read('reads_account', ids);
    const accountId = await value<string>(t.server.sql, 'SELECT deposit_account_id FROM funding_intents WHERE id = ?', ids[0]!);
    await run(t.server.sql, "UPDATE deposit_accounts SET status = 'PROVISIONING' WHERE id = ?", accountId);
    const provisioning = await read('reads_account', ids);
    expect(provisioning.get(ids[0]!).deposit_account.status).toBe('PROVISIONING');
    expect(provisioning.get(ids[0]!).funding_instructions.deposit.address).toBeNull();
    expect(provisioning.get(ids[0]!).deposit_account.address).toBeNull();
    await run(t.server.sql, "UPDATE deposit_accounts SET status = 'ACTIVE' WHERE id = ?", accountId);
    const address = cached.get(ids[0]!).deposit_account.address as string;
    const hash = 'ab'.repeat(32);
    const watched = await run(t.server.sql, 'UPDATE deposit_watch SET provision_tx_hash = ? WHERE address = ?', hash, address);
    if (watched === 0) await run(t.server.sql, "INSERT INTO deposit_watch (address, network, provision_tx_hash, created_at) VALUES (?, 'stellar', ?, '2026-01-01T00:00:00.000Z')", address, hash);
    const registered = await read('reads_account', ids);
    expect(registered.get(ids[0]!).protocol).toMatchObject({ status: 'REGISTERED', transaction_hash: hash });
  });

  it('list pages read from cached rows equal pages read fresh', async () => {
    const ids = await createIntents(4, 'reads_pages');
    const first = await get('/v1/funding-intents?reference=reads_pages&limit=2');
    const again = await get('/v1/funding-intents?reference=reads_pages&limit=2');
    expect(again.body).toEqual(first.body);
    const next = await get(`/v1/funding-intents?reference=reads_pages&limit=2&cursor=${first.body.next_cursor}`);
    expect([...first.body.data, ...next.body.data].map((fi: any) => fi.id)).toEqual([...ids].reverse());
    expect(next.body.next_cursor).toBeNull();
  });
});
