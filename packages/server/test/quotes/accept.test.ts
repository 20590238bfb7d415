import { run } from '../helpers/raw-sql.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, type TestServer } from '../helpers/server.js';
import { accept, createIntent, idem, key, optionFor, options, session, startQuotesServer, pay, waitForIntent } from './helpers.js';

let t: TestServer;
beforeAll(async () => { t = await startQuotesServer(); });
afterAll(() => t.close());

describe('who may list options and accept', () => {
  it('publishable key and the intent\'s session list options; another intent\'s session gets 403', async () => {
    const intent = await createIntent(t);
    const other = await createIntent(t);
    expect((await options(t, intent.id, KEYS.alphaPublishableTest)).status).toBe(200);
    const token = await session(t, intent.id);
    expect((await options(t, intent.id, token)).status).toBe(200);
    const foreign = await session(t, other.id);
    const denied = await options(t, intent.id, foreign);
    expect(denied.status).toBe(403);
    expect(denied.body.error).toMatchObject({ code: 'forbidden', type: 'permission_error' });
    const option = await optionFor(t, intent.id, 'XLM');
    expect((await accept(t, option.id, foreign)).status).toBe(403);
    expect((await accept(t, option.id, KEYS.alphaPublishableTest)).status).toBe(401);
    expect((await options(t, intent.id, KEYS.betaSecretTest)).status).toBe(404);
    const accepted = await accept(t, option.id, token);
    expect(accepted.body.status).toBe('LOCKED');
  });

  it('requires an Idempotency-Key, replays the locked quote under a new key, refuses superseded and simple quotes', async () => {
    const intent = await createIntent(t);
    const xlm = await optionFor(t, intent.id, 'XLM');
    const missing = await accept(t, xlm.id, key, {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('idempotency_key_required');
    expect((await accept(t, xlm.id)).status).toBe(200);
    const again = await accept(t, xlm.id, key, idem());
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: xlm.id, status: 'LOCKED' });
    const [eurc] = (await t.request('GET', `/v1/quotes?funding_intent_id=${intent.id}&status=SUPERSEDED`, { key })).body.data;
    const superseded = await accept(t, eurc.id);
    expect(superseded.status).toBe(409);
    expect(superseded.body.error).toMatchObject({ code: 'quote_not_selectable', retryable: false });
    // a fresh option replaces the accepted one (nothing was paid yet)
    const fresh = await optionFor(t, intent.id, 'EURC');
    expect((await accept(t, fresh.id)).status).toBe(200);
    expect((await t.request('GET', `/v1/quotes/${xlm.id}`, { key })).body.status).toBe('SUPERSEDED');
    const view = (await t.request('GET', `/v1/funding-intents/${intent.id}`, { key })).body;
    expect(view).toMatchObject({ source: { asset: 'EURC' }, quote: { id: fresh.id }, funding_instructions: { asset: { code: 'EURC' } } });
    const simple = await t.request('POST', '/v1/quotes', { key, body: { from_currency: 'XLM', to_currency: 'USDC', amount: 1, direction: 'receive' } });
    expect((await accept(t, simple.body.quote_id)).body.error.code).toBe('quote_not_selectable');
  });

  it('accepting the USDC (direct) option keeps the route direct', async () => {
    const intent = await createIntent(t);
    const usdc = await optionFor(t, intent.id, 'USDC');
    const res = await accept(t, usdc.id);
    expect(res.body).toMatchObject({ status: 'LOCKED', route: { type: 'DIRECT_STELLAR' }, execution: null });
    const view = (await t.request('GET', `/v1/funding-intents/${intent.id}`, { key })).body;
    expect(view).toMatchObject({ route: { type: 'DIRECT_STELLAR' }, source: { asset: 'USDC', amount: '25.0000000' } });
  });

  it('once money arrived: options in the paid asset only, and no quote can be accepted', async () => {
    const intent = await createIntent(t);
    const xlm = await optionFor(t, intent.id, 'XLM');
    await pay(t, intent.id, '10', 'USDC');
    await waitForIntent(t, intent.id, (i) => i.status === 'PARTIALLY_FUNDED');
    const res = await options(t, intent.id);
    expect(res.body.options).toHaveLength(1);
    expect(res.body.options[0]).toMatchObject({ source: { asset: 'USDC' }, pay_amount: { amount: '15.0000000' } });
    const late = await accept(t, xlm.id);
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('conflict');
  });

  it('options only while the intent can be paid (409 otherwise)', async () => {
    const intent = await createIntent(t);
    await t.request('POST', `/v1/funding-intents/${intent.id}/cancel`, { key });
    const res = await options(t, intent.id);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'conflict', type: 'invalid_request_error' });
  });
});

describe('a lapsed lock', () => {
  it('expires the accepted quote when no money came, and the intent pays its requirement again', async () => {
    const intent = await createIntent(t);
    const xlm = await optionFor(t, intent.id, 'XLM');
    await accept(t, xlm.id);
    (await run(t.server.sql, 'UPDATE quotes SET lock_expires_at = ? WHERE id = ?', new Date(Date.now() - 1000).toISOString(), xlm.id));
    const reverted = await waitForIntent(t, intent.id, (i) => i.quote === null);
    expect(reverted).toMatchObject({ route: { type: 'DIRECT_STELLAR' }, source: { asset: 'USDC', amount: '25.0000000' }, funding_instructions: { asset: { code: 'USDC' } } });
    expect((await t.request('GET', `/v1/quotes/${xlm.id}`, { key })).body).toMatchObject({ status: 'EXPIRED', execution: null });
  });

  it('a simple quote past its 30 s lock reads EXPIRED', async () => {
    const simple = await t.request('POST', '/v1/quotes', { key, body: { from_currency: 'XLM', to_currency: 'USDC', amount: 1, direction: 'receive' } });
    (await run(t.server.sql, 'UPDATE quotes SET lock_expires_at = ? WHERE id = ?', new Date(Date.now() - 1000).toISOString(), simple.body.quote_id));
    expect((await t.request('GET', `/v1/quotes/${simple.body.quote_id}`, { key })).body.status).toBe('EXPIRED');
  });
});

describe('an expired quote', () => {
  let short: TestServer;
  beforeAll(async () => { short = await startQuotesServer({ FUNDKIT_QUOTE_TTL_SECONDS: '1' }); });
  afterAll(() => short.close());

  it('is refused with quote_expired in the checkout envelope and leaves the intent untouched', async () => {
    const intent = await createIntent(short);
    const xlm = await optionFor(short, intent.id, 'XLM');
    await new Promise((r) => setTimeout(r, 1100));
    const res = await accept(short, xlm.id);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'quote_expired', retryable: false, type: 'invalid_request_error' });
    expect(res.body.error.request_id).toBe(res.headers['x-request-id']);
    const after = (await short.request('GET', `/v1/funding-intents/${intent.id}`, { key })).body;
    expect(after).toMatchObject({ status: 'AWAITING_PAYMENT', quote: null, route: { type: 'DIRECT_STELLAR' }, source: { asset: 'USDC', amount: '25.0000000' } });
    expect(after.funding_instructions.asset.code).toBe('USDC');
    expect((await short.request('GET', `/v1/quotes/${xlm.id}`, { key })).body.status).toBe('EXPIRED');
  });
});
