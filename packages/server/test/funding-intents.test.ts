import { rows } from './helpers/raw-sql.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, SETTLEMENT_ADDRESS, startTestServer, type TestServer } from './helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const OTHER_ADDRESS = 'GD6ROJBYLKQMOW3E7N4M2YBPUHMZD7PL65VRHRMO24BOVSBV5H3BQRSL';
const create = (body: object, key: string = KEYS.alphaSecretTest, headers?: Record<string, string>) =>
  t.request('POST', '/v1/funding-intents', { key, body, headers });

describe('create', () => {
  it('creates an intent awaiting payment with its deposit account and instructions', async () => {
    const res = await create({ amount: '25.00', asset: 'USDC', reference: 'order_1', metadata: { order_id: '1' } });
    expect(res.status).toBe(201);
    const fi = res.body;
    expect(fi.id).toMatch(/^fi_/);
    expect(fi.status).toBe('AWAITING_PAYMENT');
    expect(fi.requirement).toEqual({ amount: '25.0000000', asset: 'USDC' });
    expect(fi.destination).toEqual({ network: 'stellar', asset: 'USDC', address: SETTLEMENT_ADDRESS });
    expect(fi.deposit_account.address).toMatch(/^G[A-Z2-7]{55}$/);
    expect(fi.deposit_account.status).toBe('ACTIVE');
    expect(fi.funding_instructions.deposit).toEqual({ address: fi.deposit_account.address, type: 'account' });
    expect(fi.funding_instructions.asset.issuer).toBe('GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5');
    expect(fi.funding_instructions.payment_uri).toMatch(/^web\+stellar:pay\?destination=G/);
    expect(fi.livemode).toBe(false);
    expect(fi.metadata).toEqual({ order_id: '1' });
  });

  it('writes CREATED and AWAITING_PAYMENT history and a payment.pending event in the same transaction', async () => {
    const { body } = await create({ amount: '1', asset: 'XLM', destination_address: OTHER_ADDRESS });
    const history = (await t.server.services.fundingIntents.history(body.id)).map((h) => [h.from_status, h.to_status]);
    expect(history).toEqual([[null, 'CREATED'], ['CREATED', 'AWAITING_PAYMENT']]);
    const events = (await rows<{ type: string; payload: string }>(t.server.sql, 'SELECT type, payload FROM events ORDER BY id'))
      .filter((e) => JSON.parse(e.payload).data?.funding_intent_id === body.id);
    expect(events.map((e) => e.type)).toEqual(['payment.pending']);
    expect(JSON.parse(events[0]!.payload).data).toMatchObject({ payment_id: body.id, amount: 1, amount_decimal: '1.0000000', currency: 'XLM' });
  });

  it('stores the deposit secret encrypted, never in clear', async () => {
    const { body } = await create({ amount: '2', asset: 'EURC' });
    const row = (await rows(t.server.sql, 'SELECT secret_encrypted FROM deposit_accounts WHERE address = ?', body.deposit_account.address))[0] as { secret_encrypted: string };
    expect(row.secret_encrypted).not.toMatch(/^S[A-Z2-7]{55}$/);
    expect(Buffer.from(row.secret_encrypted, 'base64').length).toBeGreaterThan(28 + 50);
  });

  it.each([
    ['0', 'INVALID_AMOUNT'],
    ['-1', 'INVALID_AMOUNT'],
    ['1.12345678', 'INVALID_AMOUNT'],
    ['922337203685.4775808', 'INVALID_AMOUNT'],
    ['abc', 'INVALID_AMOUNT'],
  ])('amount %s → 422 %s', async (amount, code) => {
    const res = await create({ amount, asset: 'USDC' });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe(code);
    expect(res.body.error.details[0].path).toBe('body.amount');
  });

  it('accepts the largest Stellar amount exactly', async () => {
    const res = await create({ amount: '922337203685.4775807', asset: 'USDC' });
    expect(res.status).toBe(201);
    expect(res.body.requirement.amount).toBe('922337203685.4775807');
  });

  it('unsupported asset → 422 UNSUPPORTED_ASSET', async () => {
    const res = await create({ amount: '1', asset: 'DOGE' });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('UNSUPPORTED_ASSET');
  });

  it('bad checksum or malformed destination → 422 INVALID_DESTINATION', async () => {
    const badChecksum = SETTLEMENT_ADDRESS.slice(0, -1) + (SETTLEMENT_ADDRESS.endsWith('7') ? 'A' : '7');
    for (const address of [badChecksum, 'GABC', 'SDVEU3DD4KOFECV66VIHWEZOYX4ZKR3WV27L464SIIPOU2IUI3JCZA57']) {
      const res = await create({ amount: '1', asset: 'USDC', destination_address: address });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('INVALID_DESTINATION');
    }
  });

  it('no destination and no settlement address → 422 INVALID_DESTINATION', async () => {
    const res = await create({ amount: '1', asset: 'USDC' }, KEYS.betaSecretTest);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('INVALID_DESTINATION');
    // it names the dashboard page where the address is added
    expect(res.body.error.message).toContain('/dashboard/#/applications');
    expect(res.body.error.message).toContain('Default settlement address');
  });

  it('expiry in the past or too far → 422 INVALID_EXPIRATION', async () => {
    for (const expires_at of [new Date(Date.now() - 1000).toISOString(), new Date(Date.now() + 31 * 86_400_000).toISOString()]) {
      const res = await create({ amount: '1', asset: 'USDC', expires_at });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('INVALID_EXPIRATION');
    }
  });
});

describe('retrieve, list, cancel', () => {
  it('retrieves by id with both path spellings', async () => {
    const { body } = await create({ amount: '3', asset: 'USDC' });
    for (const path of [`/v1/funding-intents/${body.id}`, `/v1/funding_intents/${body.id}`]) {
      const res = await t.request('GET', path, { key: KEYS.alphaSecretTest });
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(body.id);
    }
  });

  it('another application’s intent is 404; the other environment’s is 403 naming it', async () => {
    const { body } = await create({ amount: '3', asset: 'USDC' });
    const other = await t.request('GET', `/v1/funding-intents/${body.id}`, { key: KEYS.betaSecretTest });
    expect(other.status).toBe(404);
    const live = await t.request('GET', `/v1/funding-intents/${body.id}`, { key: KEYS.alphaSecretLive });
    expect(live.status).toBe(403);
    expect(live.body.error.code).toBe('FORBIDDEN');
    expect(live.body.error.message).toMatch(/test environment/);
  });

  it('lists newest first with keyset pagination and filters', async () => {
    const t2 = await startTestServer();
    try {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await t2.request('POST', '/v1/funding_intents', { key: KEYS.alphaSecretTest, body: { amount: `${i + 1}`, asset: 'USDC', reference: i % 2 ? 'odd' : 'even' } });
        ids.push(res.body.id);
      }
      const page1 = await t2.request('GET', '/v1/funding-intents?limit=2', { key: KEYS.alphaSecretTest });
      expect(page1.body.data.map((fi: { id: string }) => fi.id)).toEqual([ids[4], ids[3]]);
      const page2 = await t2.request('GET', `/v1/funding-intents?limit=2&cursor=${page1.body.next_cursor}`, { key: KEYS.alphaSecretTest });
      expect(page2.body.data.map((fi: { id: string }) => fi.id)).toEqual([ids[2], ids[1]]);
      const page3 = await t2.request('GET', `/v1/funding_intents?limit=2&cursor=${page2.body.next_cursor}`, { key: KEYS.alphaSecretTest });
      expect(page3.body.data.map((fi: { id: string }) => fi.id)).toEqual([ids[0]]);
      expect(page3.body.next_cursor).toBeNull();
      const odd = await t2.request('GET', '/v1/funding-intents?reference=odd', { key: KEYS.alphaSecretTest });
      expect(odd.body.data.map((fi: { id: string }) => fi.id)).toEqual([ids[3], ids[1]]);
      const awaiting = await t2.request('GET', '/v1/funding-intents?status=AWAITING_PAYMENT&limit=100', { key: KEYS.alphaSecretTest });
      expect(awaiting.body.data).toHaveLength(5);
      const cancelled = await t2.request('GET', '/v1/funding-intents?status=CANCELLED', { key: KEYS.alphaSecretTest });
      expect(cancelled.body.data).toHaveLength(0);
      const live = await t2.request('GET', '/v1/funding-intents', { key: KEYS.alphaSecretLive });
      expect(live.body.data).toHaveLength(0);
      const beta = await t2.request('GET', '/v1/funding-intents', { key: KEYS.betaSecretTest });
      expect(beta.body.data).toHaveLength(0);
    } finally {
      await t2.close();
    }
  });

  it('a forged cursor is a 400 naming query.cursor', async () => {
    const res = await t.request('GET', '/v1/funding-intents?cursor=not-a-cursor', { key: KEYS.alphaSecretTest });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe('query.cursor');
  });

  it('cancels an intent that received nothing, once', async () => {
    const { body } = await create({ amount: '3', asset: 'USDC' });
    const res = await t.request('POST', `/v1/funding_intents/${body.id}/cancel`, { key: KEYS.alphaSecretTest });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('CANCELLED');
    const again = await t.request('POST', `/v1/funding-intents/${body.id}/cancel`, { key: KEYS.alphaSecretTest });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('CONFLICT');
    const history = (await t.server.services.fundingIntents.history(body.id)).map((h) => h.to_status);
    expect(history).toEqual(['CREATED', 'AWAITING_PAYMENT', 'CANCELLED']);
  });
});
