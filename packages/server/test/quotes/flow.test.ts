import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { accept, createIntent, history, key, options, pay, startQuotesServer, waitFor, waitForIntent } from './helpers.js';

let t: TestServer;
beforeAll(async () => { t = await startQuotesServer(); });
afterAll(() => t.close());

describe('paying a USDC intent in XLM through an accepted quote', () => {
  it('prices every asset, locks the XLM quote, converts in place and credits exactly 25 USDC', async () => {
    const intent = await createIntent(t);
    const started = performance.now();
    const res = await options(t, intent.id);
    const first = performance.now() - started;
    const again = performance.now();
    const spare = await createIntent(t);
    for (let i = 0; i < 10; i++) await options(t, spare.id);
    // logged, not asserted: 3 assets, 2 path queries over the sandbox book, 3 quote rows, over HTTP
    console.log(`pricing all options took ${first.toFixed(1)} ms (first call), ${((performance.now() - again) / 10).toFixed(1)} ms on average over 10 more`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'funding_options', funding_intent_id: intent.id });
    const byAsset = Object.fromEntries(res.body.options.map((o: any) => [o.source.asset, o]));
    expect(Object.keys(byAsset).sort()).toEqual(['EURC', 'USDC', 'XLM']);
    expect(byAsset.USDC).toMatchObject({ pay_amount: { amount: '25.0000000', asset: 'stellar:USDC' }, receive_amount_min: { amount: '25.0000000', asset: 'stellar:USDC' } });
    // 250 XLM at 0.1 USDC, plus the 50 bps slippage margin: 250 / 0.995 = 251.25628140…, rounded up
    expect(byAsset.XLM).toMatchObject({ pay_amount: { amount: '251.2562815', asset: 'stellar:XLM' }, receive_amount_min: { amount: '25.0000000', asset: 'stellar:USDC' } });
    expect(byAsset.XLM.fees).toEqual([{ type: 'NETWORK', asset: 'XLM', amount: '0.0000200' }]);
    // 25 USDC at 1.08 USDC per EURC: 23.1481482 EURC (rounded in the maker's favour) + margin
    expect(byAsset.EURC.pay_amount.amount).toBe('23.2644706');

    const quote = await t.request('GET', `/v1/quotes/${byAsset.XLM.id}`, { key });
    expect(quote.body).toMatchObject({ status: 'ACTIVE', type: 'EXACT_OUTPUT', source: { asset: 'XLM', amount: '251.2562815', expected_amount: '250.0000000' }, exchange_rate: '0.1000000', slippage_bps: 50 });

    const accepted = await accept(t, byAsset.XLM.id);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ status: 'LOCKED', execution: { status: 'PENDING', phase: 'CREATED' } });
    const locked = (await t.request('GET', `/v1/funding-intents/${intent.id}`, { key })).body;
    expect(locked).toMatchObject({
      source: { asset: 'XLM', amount: '251.2562815' }, route: { type: 'STELLAR_PATH_PAYMENT' }, quote: { id: byAsset.XLM.id, status: 'LOCKED' },
      funding_instructions: { asset: { code: 'XLM', stellar_asset: 'native' }, amount: '251.2562815', required_amount: '251.2562815' },
    });
    const others = await t.request('GET', `/v1/quotes?funding_intent_id=${intent.id}&status=SUPERSEDED`, { key });
    expect(others.body.data.map((q: any) => q.source.asset).sort()).toEqual(['EURC', 'USDC']);

    await pay(t, intent.id, '251.2562815', 'XLM');
    const done = await waitForIntent(t, intent.id, (i) => i.status === 'CREDITED');
    expect(done.settlement).toMatchObject({ status: 'CONFIRMED', destination: { asset: 'USDC', amount: '25.0000000' }, route: 'path_payment' });
    expect(done.quote).toMatchObject({ status: 'EXECUTED', execution: { status: 'SUCCEEDED', phase: 'COMPLETED' } });
    expect(done.quote.execution.transaction_hashes).toHaveLength(1);
    expect(await history(t, intent.id)).toEqual(['CREATED', 'AWAITING_PAYMENT', 'PAYMENT_DETECTED', 'PAYMENT_CONFIRMED', 'ROUTING', 'SETTLING', 'SETTLED', 'CREDITED']);
    const balances = await t.request('GET', '/v1/ledger/balances', { key });
    expect(balances.body.data.find((b: any) => b.asset === 'USDC')).toMatchObject({ available: '25.0000000' });
    // the slippage margin not spent stays with the payment (ROUTE_REMAINDER)
    expect(await t.server.services.quotes.executions.remainderOf(intent.id)).toBe(12_562_815n);
    const rex = await t.request('GET', `/v1/route-executions/${done.quote.execution.id}`, { key });
    expect(rex.body).toMatchObject({ object: 'route_execution', status: 'SUCCEEDED', route_type: 'STELLAR_PATH_PAYMENT' });

    expect(done.payment).toMatchObject({ asset: 'XLM', amount: '251.2562815', refundable_amount: '1.2562815' });
    const refund = await t.request('POST', `/v1/funding-intents/${intent.id}/payments/${done.payment.id}/refunds`, { key, body: { reason: 'ROUTE_REMAINDER' } });
    expect(refund.status).toBe(201);
    expect(refund.body).toMatchObject({ asset: 'XLM', amount: '1.2562815', reason: 'ROUTE_REMAINDER' });
    await waitFor(() => t.request('GET', `/v1/refunds/${refund.body.id}`, { key }), (r) => r.body.status === 'COMPLETED');
  });

  it('an overpayment in XLM: the surplus and the remainder are both refundable (ROUTE_SURPLUS)', async () => {
    const intent = await createIntent(t);
    const xlm = (await options(t, intent.id)).body.options.find((o: any) => o.source.asset === 'XLM');
    await accept(t, xlm.id);
    await pay(t, intent.id, '260', 'XLM');
    const done = await waitForIntent(t, intent.id, (i) => i.status === 'CREDITED');
    expect(done.settlement.destination.amount).toBe('25.0000000');
    // 260 - 250 consumed: 8.7437185 surplus + 1.2562815 remainder
    expect(done.payment.refundable_amount).toBe('10.0000000');
    const refund = await t.request('POST', `/v1/funding-intents/${intent.id}/payments/${done.payment.id}/refunds`, { key, body: { reason: 'ROUTE_SURPLUS' } });
    expect(refund.body).toMatchObject({ amount: '10.0000000', asset: 'XLM' });
    await waitFor(() => t.request('GET', `/v1/refunds/${refund.body.id}`, { key }), (r) => r.body.status === 'COMPLETED');
  });

  it('an EURC payer: accept adds the sponsored EURC trustline for real, the conversion pays 25 USDC', async () => {
    const intent = await createIntent(t);
    const eurc = (await options(t, intent.id)).body.options.find((o: any) => o.source.asset === 'EURC');
    const network = t.server.services.pipeline.pipeline.stellar!.network;
    const before = await network.loadAccount(intent.deposit_account.address);
    expect(before!.balances.some((b) => b.asset.code === 'EURC')).toBe(false);
    expect((await accept(t, eurc.id)).status).toBe(200);
    const after = await network.loadAccount(intent.deposit_account.address);
    expect(after!.balances.some((b) => b.asset.code === 'EURC')).toBe(true);
    expect(after!.numSponsored).toBe(before!.numSponsored + 1);
    await pay(t, intent.id, eurc.pay_amount.amount, 'EURC');
    const done = await waitForIntent(t, intent.id, (i) => i.status === 'CREDITED');
    expect(done.settlement.destination.amount).toBe('25.0000000');
    expect(done.payment.refundable_amount).toBe('0.1163224');
  });
});
