import { createServer, type FundkitServer } from '@fundkit/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthenticationError, ConflictError, Fundkit, IdempotencyError, NotFoundError, PermissionError, ValidationError,
  type FundingIntent,
} from '../src/index.js';

/** The REAL reference server (from source, in-memory SQLite) on an ephemeral port. */
const SECRET_TEST = 'sk_test_sdkIntegration000000000001';
const SECRET_LIVE = 'sk_live_sdkIntegration000000000001';
const SETTLEMENT_ADDRESS = 'GDVEU3DD4KOFECV66VIHWEZOYX4ZKR3WV27L464SIIPOU2IUI3JCZA57';

let server: FundkitServer;
let fk: Fundkit;
let url: string;

beforeAll(async () => {
  server = await createServer({
    env: { FUNDKIT_DB: ':memory:', LOG_LEVEL: 'silent' },
    bootstrap: { applications: [{ name: 'SDK', secret_keys: [SECRET_TEST, SECRET_LIVE], settlement_address: SETTLEMENT_ADDRESS }] },
  });
  ({ url } = await server.listen(0, '127.0.0.1'));
  fk = new Fundkit({ apiKey: SECRET_TEST, baseUrl: url });
});
afterAll(() => server?.close());

const create = (reference: string, key?: string) =>
  fk.fundingIntents.create({ amount: '12.5', asset: 'USDC', reference }, key ? { idempotencyKey: key } : undefined);

describe('against the reference server', () => {
  it('creates, retrieves and cancels a funding intent', async () => {
    const { data: intent, requestId, response } = await create('order-1').withResponse();
    expect(response.status).toBe(201);
    expect(requestId).toMatch(/^req_/);
    expect(intent).toMatchObject({ object: 'funding_intent', reference: 'order-1', requirement: { amount: '12.5000000', asset: 'USDC' } });
    const again = await fk.fundingIntents.retrieve(intent.id);
    expect(again.id).toBe(intent.id);
    const cancelled = await fk.fundingIntents.cancel(intent.id);
    expect(cancelled.status).toBe('CANCELLED');
    await expect(fk.fundingIntents.cancel(intent.id)).rejects.toBeInstanceOf(ConflictError);
  });

  it('replays a create with the same Idempotency-Key and refuses it with another body', async () => {
    const first = await create('order-idem', 'idem-key-0001');
    const replay = await create('order-idem', 'idem-key-0001');
    expect(replay.id).toBe(first.id);
    const reused = create('order-other', 'idem-key-0001');
    await expect(reused).rejects.toBeInstanceOf(IdempotencyError);
    await expect(reused).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', status: 422 });
  });

  it('lists across several pages with for await, pages() and toArray', async () => {
    const created: FundingIntent[] = [];
    for (let i = 0; i < 7; i++) created.push(await create('batch-7'));
    const seen: string[] = [];
    for await (const intent of fk.fundingIntents.list({ reference: 'batch-7', limit: 2 })) seen.push(intent.id);
    expect(seen).toEqual(created.map((i) => i.id).reverse());
    let pages = 0;
    for await (const page of fk.fundingIntents.list({ reference: 'batch-7', limit: 3 }).pages()) pages += page.data.length > 0 ? 1 : 0;
    expect(pages).toBe(3);
    expect(await fk.fundingIntents.list({ reference: 'batch-7', limit: 2 }).toArray({ limit: 5 })).toHaveLength(5);
    const first = await fk.fundingIntents.list({ reference: 'batch-7', limit: 2 });
    expect(first.data).toHaveLength(2);
    expect(first.hasNextPage()).toBe(true);
  });

  it('throws typed errors carrying the real envelope', async () => {
    const missing = await fk.fundingIntents.retrieve('fi_doesnotexist').withResponse().catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ status: 404, code: 'NOT_FOUND', requestId: expect.stringMatching(/^req_/) });
    expect((missing as NotFoundError).requestId).toBe((missing as NotFoundError).headers?.get('x-request-id'));

    const invalid = await fk.fundingIntents.create({ amount: '-3', asset: 'USDC' }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ValidationError);
    expect((invalid as ValidationError).code).toMatch(/VALIDATION_ERROR|INVALID_AMOUNT/);

    const badKey = new Fundkit({ apiKey: 'sk_test_doesNotExist0000000000001', baseUrl: url });
    await expect(badKey.fundingIntents.list()).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('a live key cannot act on a sandbox object (403 from the server)', async () => {
    const intent = await create('env-check');
    const live = new Fundkit({ apiKey: SECRET_LIVE, baseUrl: url });
    const error = await live.fundingIntents.retrieve(intent.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionError);
  });

  it('reads assets and request logs', async () => {
    const assets = await fk.assets.list();
    expect(assets.data.map((a) => a.code)).toEqual(expect.arrayContaining(['USDC', 'EURC', 'XLM']));
    const logs = await fk.requestLogs.list({ limit: 5 });
    expect(logs.data.length).toBeGreaterThan(0);
  });

  it('pays with the sandbox helper, expires, and refunds the partial payment', async () => {
    const intent = await create('pay-refund');
    // the route exists on the reference server: a 404 here is a regression, not a skip
    const paid = await fk.testHelpers.pay(intent.id, { amount: '5', asset: 'USDC' });
    expect(paid).toMatchObject({ object: 'test_payment', funding_intent_id: intent.id });

    const payment = await waitFor(async () => (await fk.fundingIntents.payments(intent.id)).data[0]);
    await fk.testHelpers.expire(intent.id);
    const refund = await fk.refunds.create(intent.id, payment.id, { reason: 'EXPIRED_INTENT' });
    expect(refund).toMatchObject({ object: 'refund', payment_id: payment.id, reason: 'EXPIRED_INTENT' });
    expect((await fk.refunds.retrieve(refund.id)).id).toBe(refund.id);
    const listed = await fk.refunds.listForPayment(intent.id, payment.id).toArray({ limit: 10 });
    expect(listed.map((r) => r.id)).toContain(refund.id);
  });
});

async function waitFor<T>(read: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
