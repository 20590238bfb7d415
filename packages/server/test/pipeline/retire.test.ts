import { run } from '../helpers/raw-sql.js';
import { Horizon } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createIntent, FAST_ENV, key, pay, waitFor, waitForIntent } from './helpers.js';

let t: TestServer;
let horizon: Horizon.Server;
beforeAll(async () => {
  t = await startTestServer({ env: { ...FAST_ENV, FUNDKIT_DEPOSIT_WATCH: '0s' } });
  horizon = new Horizon.Server(`${t.url}/sandbox/horizon`, { allowHttp: true });
}, 60_000);
afterAll(() => t.close());

const expireNow = (id: string) => run(t.server.sql, 'UPDATE funding_intents SET expires_at = ? WHERE id = ?', new Date(Date.now() - 1000).toISOString(), id);
const treasurySponsoring = async () => (await horizon.loadAccount(t.server.services.pipeline.pipeline.stellar!.treasury.publicKey())).num_sponsoring;

describe('deposit account retirement', () => {
  it('merges a settled account back into the treasury after its watch window (RETIRED)', async () => {
    const pool = t.server.services.pipeline.pipeline.pool!;
    const intent = await createIntent(t);
    // the pool replaces the account the intent took (sponsored by the treasury too) in the
    // background: count once it is full, so that only the retirement moves the figure after
    await waitFor(async () => pool.ready('USDC'), (n) => n === t.server.config.depositPoolSize);
    const sponsoringBefore = await treasurySponsoring();
    await pay(t, intent.id, '25');
    await waitForIntent(t, intent.id, (i) => i.status === 'CREDITED');
    await expireNow(intent.id);
    const done = await waitForIntent(t, intent.id, (i) => i.deposit_account.status === 'RETIRED');
    expect(done.deposit_account.retired_at).not.toBeNull();
    await expect(horizon.loadAccount(intent.deposit_account.address)).rejects.toThrow();
    expect(await treasurySponsoring()).toBeLessThan(sponsoringBefore);
  });

  it('keeps an account that still holds refundable money until it is refunded', async () => {
    const intent = await createIntent(t);
    await pay(t, intent.id, '30');
    const credited = await waitForIntent(t, intent.id, (i) => i.status === 'CREDITED');
    await expireNow(intent.id);
    // every worker made a pass and found nothing more to do: a retirement of this account would
    // have been started (and so waited for) by then
    await t.server.services.workers.drain();
    expect((await t.request('GET', `/v1/funding-intents/${intent.id}`, { key })).body.deposit_account.status).toBe('ACTIVE');
    const refund = await t.request('POST', `/v1/funding-intents/${intent.id}/payments/${credited.payment.id}/refunds`, { key, body: { reason: 'OVERPAYMENT' } });
    await waitFor(async () => (await t.request('GET', `/v1/refunds/${refund.body.id}`, { key })).body, (r) => r.status === 'COMPLETED');
    await waitForIntent(t, intent.id, (i) => i.deposit_account.status === 'RETIRED');
  });
});

describe('deposit accounts of intents that end unpaid', () => {
  // the default watch window (7 days): only an intent that ended unpaid is retired at once
  let w: TestServer;
  beforeAll(async () => {
    w = await startTestServer({ env: FAST_ENV });
  }, 60_000);
  afterAll(() => w.close());

  const wHorizon = () => new Horizon.Server(`${w.url}/sandbox/horizon`, { allowHttp: true });

  it('are merged back at once when cancelled or expired; a paid one keeps its account for the watch window', async () => {
    const cancelled = await createIntent(w);
    await waitForIntent(w, cancelled.id, (i) => i.status === 'AWAITING_PAYMENT');
    expect((await w.request('POST', `/v1/funding-intents/${cancelled.id}/cancel`, { key })).status).toBe(200);
    const retired = await waitForIntent(w, cancelled.id, (i) => i.deposit_account.status === 'RETIRED', 15_000);
    expect(retired.deposit_account.retired_at).not.toBeNull();
    await expect(wHorizon().loadAccount(cancelled.deposit_account.address)).rejects.toThrow();

    const expired = await createIntent(w);
    await waitForIntent(w, expired.id, (i) => i.status === 'AWAITING_PAYMENT');
    await run(w.server.sql, 'UPDATE funding_intents SET expires_at = ? WHERE id = ?', new Date(Date.now() - 1000).toISOString(), expired.id);
    await waitForIntent(w, expired.id, (i) => i.status === 'EXPIRED' && i.deposit_account.status === 'RETIRED', 15_000);

    // paid: its account stays for the watch window (a refund may still be asked for)
    const paid = await createIntent(w);
    await pay(w, paid.id, '25');
    await waitForIntent(w, paid.id, (i) => i.status === 'CREDITED');
    // a retirement pass has run since (the cancelled one above was retired by one), and another now
    const later = await createIntent(w);
    await waitForIntent(w, later.id, (i) => i.status === 'AWAITING_PAYMENT');
    await w.request('POST', `/v1/funding-intents/${later.id}/cancel`, { key });
    await waitForIntent(w, later.id, (i) => i.deposit_account.status === 'RETIRED', 15_000);
    expect((await w.request('GET', `/v1/funding-intents/${paid.id}`, { key })).body.deposit_account.status).toBe('ACTIVE');
  });

  it('a late payment finds no account to pay (merged: it fails on the payer side); nothing is credited', async () => {
    const intent = await createIntent(w);
    await waitForIntent(w, intent.id, (i) => i.status === 'AWAITING_PAYMENT');
    await w.request('POST', `/v1/funding-intents/${intent.id}/cancel`, { key });
    await waitForIntent(w, intent.id, (i) => i.deposit_account.status === 'RETIRED', 15_000);
    const late = await w.request('POST', `/v1/test_helpers/funding-intents/${intent.id}/payments`, { key, body: { amount: '25', asset: 'USDC' } });
    expect(late.status).toBe(409);
    await expect(wHorizon().loadAccount(intent.deposit_account.address)).rejects.toThrow();
    expect((await w.request('GET', `/v1/funding-intents/${intent.id}`, { key })).body).toMatchObject({ status: 'CANCELLED', received_amount: '0.0000000' });
  });
});
