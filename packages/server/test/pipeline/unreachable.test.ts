import { rows } from '../helpers/raw-sql.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { FAST_ENV, key, waitFor } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  // a closed port: every Horizon call fails at once
  t = await startTestServer({ env: { ...FAST_ENV, FUNDKIT_STELLAR: 'testnet', FUNDKIT_HORIZON_URL: 'http://127.0.0.1:9' } });
});
afterAll(() => t.close());

describe('an unreachable network', () => {
  it('still answers creates at once (CREATED, PROVISIONING), never a 500; the batch waits, keys kept, and is retried', async () => {
    const res = await t.request('POST', '/v1/funding-intents', { key, body: { amount: '25.00', asset: 'USDC' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'CREATED', deposit_account: { status: 'PROVISIONING' }, funding_instructions: { deposit: { address: null } } });
    const batch = await waitFor(async () => (await rows(t.server.sql, `SELECT b.* FROM deposit_batches b JOIN deposit_accounts da ON da.provision_batch_id = b.id
      WHERE da.id = ?`, res.body.deposit_account.id))[0] as any, (b) => b?.attempts >= 1);
    expect(batch).toMatchObject({ status: 'PENDING', envelope_xdr: null });
  });
});
