/**
 * Issue 26: a merchant's CI creates intents and pays each at once through the test helper, the flow
 * the docs and `fundkit pay` show. With the warm pool short, most new intents are still CREATED
 * (their deposit accounts being created): the helper waits for the account instead of answering
 * "not yet", on both engines and on every ledger clock. Past its bound it answers a retryable 409
 * with Retry-After, which a retry with the same Idempotency-Key runs again instead of replaying.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeLedger } from '../helpers/sandbox-rpc.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createIntent, FAST_ENV, key, waitFor } from './helpers.js';

const INTENTS = 60;

/**
 * INTENTS intents created at once and each paid at once through the helper: every answer is 201,
 * and every payment went to the address the intent shows once CREDITED. At least `minWaiting` of
 * them were still CREATED (their account not on chain) when created.
 */
async function payAtOnce(t: TestServer, minWaiting: number): Promise<void> {
  const intents = await Promise.all(Array.from({ length: INTENTS }, () => createIntent(t, { amount: '5.00' })));
  const waiting = intents.filter((i) => i.status === 'CREATED');
  // the rule under test is exercised: these accounts did not exist when their payments were asked
  expect(waiting.length).toBeGreaterThanOrEqual(minWaiting);
  // and their answers agree with the contract: no address anywhere before the account is on chain
  for (const intent of waiting) {
    expect(intent.deposit_account).toMatchObject({ status: 'PROVISIONING', address: null });
    expect(intent.funding_instructions.deposit.address).toBeNull();
    expect(intent.funding_instructions.payment_uri).toBeNull();
  }
  const paid = await Promise.all(intents.map((i, n) => t.request('POST', `/v1/test_helpers/funding-intents/${i.id}/payments`,
    { key, body: { amount: '5.00', asset: 'USDC' }, headers: { 'idempotency-key': `pay-at-once-${i.id}-${n}` } })));
  expect(paid.filter((r) => r.status !== 201).map((r) => `${r.status} ${r.text}`)).toEqual([]);
  // every payment went to the address the intent shows now
  const credited: any[] = await waitFor(async () => (await t.request('GET', '/v1/funding-intents?status=CREDITED&limit=100', { key })).body.data,
    (list) => list.length === INTENTS, 60_000, 200);
  const byId = new Map(credited.map((i) => [i.id, i]));
  for (const [n, intent] of intents.entries()) {
    const now = byId.get(intent.id);
    expect(now.deposit_account.address).toBe(paid[n]!.body.destination_address);
    expect(now.funding_instructions.deposit.address).toBe(now.deposit_account.address);
  }
}

describe.each([
  ['the instant ledger', {}],
  ['1 s ledgers', { FUNDKIT_SANDBOX_LEDGER_SECONDS: '1' }],
])('on %s', (_clock, clock) => {
  let t: TestServer;
  beforeAll(async () => {
    // no warm pool: every create waits for its own account, as the last of a burst does when the
    // pool runs dry (on SQLite's instant ledger the pool refills fast enough to hide that)
    t = await startTestServer({ env: { ...FAST_ENV, ...clock, FUNDKIT_DEPOSIT_POOL_SIZE: '0' } });
  });
  afterAll(() => t.close());

  it(`${INTENTS} intents created at once and paid at once through the helper are all CREDITED, none answered 409`, async () => {
    // all but those whose account a worker created between their commit and their answer
    await payAtOnce(t, INTENTS - 10);
  }, 120_000);

  it('options and a quote in the intent\'s own asset answer for a CREATED intent at once', async () => {
    const intent = await createIntent(t, { amount: '5.00' });
    expect(intent.status).toBe('CREATED');
    const options = await t.request('GET', `/v1/funding_intents/${intent.id}/options`, { key });
    expect(options.status).toBe(200);
    const direct = options.body.options.find((o: any) => o.pay_amount.asset === 'stellar:USDC');
    expect(direct.pay_amount.amount).toBe('5.0000000');
    const accepted = await t.request('POST', `/v1/quotes/${direct.id}/accept`, { key, headers: { 'idempotency-key': `accept-${intent.id}` } });
    expect(accepted.status).toBe(200);
    expect(accepted.body.status).toBe('LOCKED');
  });

  it('a quote in another asset accepted on a CREATED intent waits for its account, then adds the trustline', async () => {
    const intent = await createIntent(t, { amount: '5.00' });
    expect(intent.status).toBe('CREATED');
    const options = await t.request('GET', `/v1/funding_intents/${intent.id}/options`, { key });
    const eurc = options.body.options.find((o: any) => o.pay_amount.asset === 'stellar:EURC');
    expect(eurc).toBeDefined();
    const accepted = await t.request('POST', `/v1/quotes/${eurc.id}/accept`, { key, headers: { 'idempotency-key': `accept-eurc-${intent.id}` } });
    expect(accepted.status).toBe(200);
    const now = (await t.request('GET', `/v1/funding-intents/${intent.id}`, { key })).body;
    expect(now).toMatchObject({ status: 'AWAITING_PAYMENT', source: { asset: 'EURC' } });
    const account = await (await fetch(`${t.url}/sandbox/horizon/accounts/${now.deposit_account.address}`)).json() as any;
    expect(account.balances.map((b: any) => b.asset_code).filter(Boolean).sort()).toEqual(['EURC', 'USDC']);
  });
});

describe('in the default setup: the sandbox in its thread over RPC, the warm pool at its default size', () => {
  let t: TestServer;
  beforeAll(async () => { t = await startTestServer({ env: FAST_ENV }); });
  afterAll(() => t.close());

  it(`${INTENTS} intents created at once and paid at once are all CREDITED, every answer 201`, async () => {
    // the pool (20 USDC accounts) serves the first; the rest wait for accounts of their own
    await payAtOnce(t, 1);
  }, 120_000);
});

describe('past the bound', () => {
  let t: TestServer;
  beforeAll(async () => {
    // no pool and a ledger an hour long: the account of a new intent waits for a close the test makes
    // a bound of 3 s: long enough for an account's creation at the closes the tests make, on two
    // loaded cores (1.5 s was not, once in a run on PostgreSQL)
    // (the sandbox in its thread, reached over HTTP; the test closes its ledgers with sandbox_closeLedger)
    t = await startTestServer({ config: { payableWaitMs: 3_000 },
      env: { ...FAST_ENV, FUNDKIT_SANDBOX_LEDGER_SECONDS: '3600', FUNDKIT_DEPOSIT_POOL_SIZE: '0' } });
  });
  afterAll(() => t.close());

  /** closes a ledger every 50 ms until `work` settles: whatever it waits for lands at some close */
  async function closingLedgersUntil<T>(work: Promise<T>): Promise<T> {
    let settled = false;
    void work.then(() => { settled = true; }, () => { settled = true; });
    while (!settled) {
      await closeLedger(t);
      await new Promise((r) => setTimeout(r, 50));
    }
    return work;
  }
  const statusOf = async (id: string) => (await t.request('GET', `/v1/funding-intents/${id}`, { key })).body.status as string;

  it('answers a retryable 409 with Retry-After saying how long it waited, and a retry with the same key pays once the account exists', async () => {
    const intent = await createIntent(t, { amount: '5.00' });
    expect(intent.status).toBe('CREATED');
    const pay = () => t.request('POST', `/v1/test_helpers/funding-intents/${intent.id}/payments`,
      { key, body: { amount: '5.00', asset: 'USDC' }, headers: { 'idempotency-key': `not-yet-${intent.id}` } });
    const started = Date.now();
    const notYet = await pay();
    expect(notYet.status).toBe(409);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_900);
    expect(notYet.body.error).toMatchObject({ code: 'CONFLICT', retryable: true });
    expect(notYet.body.error.message).toMatch(/PROVISIONING.*waited 3\.\d s/);
    expect(notYet.headers['retry-after']).toBe('60');
    // the deposit account's creation waits for a close
    await closingLedgersUntil(waitFor(() => statusOf(intent.id), (s) => s === 'AWAITING_PAYMENT', 10_000));
    // the same request with the same key runs again (it is not the 409 replayed): its payment is
    // submitted and lands at a close
    const paid = await closingLedgersUntil(pay());
    expect(paid.status).toBe(201);
    expect(paid.headers['idempotent-replayed']).toBeUndefined();
    // and from now on that success is what the key replays
    const replay = await pay();
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.transaction_hash).toBe(paid.body.transaction_hash);
  }, 30_000);

  it('expire waits the same way, and then expires an intent whose account came', async () => {
    const intent = await createIntent(t, { amount: '5.00' });
    expect(intent.status).toBe('CREATED');
    const expired = await closingLedgersUntil(t.request('POST', `/v1/test_helpers/funding-intents/${intent.id}/expire`, { key }));
    expect(expired.status).toBe(200);
    expect(expired.body.status).toBe('EXPIRED');
    // an intent that ended unpaid gives its account back at once; the merge lands at a close (on
    // this hour-long ledger, only at the ones the test makes: none left in flight when it stops)
    const retired = await closingLedgersUntil(waitFor(async () => (await t.request('GET', `/v1/funding-intents/${intent.id}`, { key })).body,
      (i) => i.deposit_account.status === 'RETIRED', 20_000));
    expect(retired.deposit_account.retired_at).not.toBeNull();
  }, 30_000);
});

describe('the first create after start', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: FAST_ENV });
  });
  afterAll(() => t.close());

  it('is payable at once: the sandbox fills its pool before it answers, and both addresses agree', async () => {
    const first = await createIntent(t);
    expect(first).toMatchObject({ status: 'AWAITING_PAYMENT', deposit_account: { status: 'ACTIVE' } });
    expect(first.deposit_account.address).toMatch(/^G[A-Z2-7]{55}$/);
    expect(first.funding_instructions.deposit.address).toBe(first.deposit_account.address);
    expect(first.funding_instructions.payment_uri).toContain(`destination=${first.deposit_account.address}`);
  });
});
