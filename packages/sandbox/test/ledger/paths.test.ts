import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Asset, Keypair, Operation, xdr } from '@stellar/stellar-sdk';
import {
  balanceOf, buildTx, EURC, fundedAccount, startSandbox, submitExpectingFailure, USDC, type Sandbox,
} from './helpers.js';

let sb: Sandbox;
beforeEach(async () => { sb = await startSandbox(); });
afterEach(async () => { await sb.close(); });

async function merchant(asset: Asset) {
  const shop = await fundedAccount(sb, '10');
  await sb.horizon.submitTransaction(await buildTx(sb, shop, [Operation.changeTrust({ asset })]));
  return shop;
}

describe('sandbox order book and path payments', () => {
  it('quotes strict-receive paths from the seeded book, direct and through USDC', async () => {
    const page = await sb.horizon.strictReceivePaths([Asset.native(), EURC], USDC, '10').call();
    const byAsset = Object.fromEntries(page.records.map((r) => [r.source_asset_type === 'native' ? 'XLM' : r.source_asset_code, r]));
    expect(byAsset.XLM).toMatchObject({ source_amount: '100.0000000', destination_amount: '10.0000000', path: [] });
    // 10 USDC / 1.08 = 9.2592593 EURC, rounded in the maker's favour.
    expect(byAsset.EURC).toMatchObject({ source_amount: '9.2592593', path: [] });
    const twoHop = await sb.horizon.strictReceivePaths([Asset.native()], EURC, '1').call();
    expect(twoHop.records[0]).toMatchObject({
      source_asset_type: 'native', source_amount: '10.8000000', destination_asset_code: 'EURC',
      path: [{ asset_type: 'credit_alphanum4', asset_code: 'USDC', asset_issuer: USDC.getIssuer() }],
    });
    const send = await sb.horizon.strictSendPaths(Asset.native(), '50', [USDC]).call();
    expect(send.records[0]).toMatchObject({ source_amount: '50.0000000', destination_amount: '5.0000000', path: [] });
  });

  it('pays USDC with XLM (strict receive), moving the market maker for real', async () => {
    const payer = await fundedAccount(sb, '1000');
    const shop = await merchant(USDC);
    const mmBefore = await sb.horizon.loadAccount(sb.keys.marketMaker.publicKey);
    const tx = await buildTx(sb, payer, [Operation.pathPaymentStrictReceive({
      sendAsset: Asset.native(), sendMax: '101', destination: shop.publicKey(), destAsset: USDC, destAmount: '10', path: [],
    })]);
    const res = await sb.horizon.submitTransaction(tx);
    const result = xdr.TransactionResult.fromXdr(res.result_xdr, 'base64');
    const tr = xdr.expectUnionVariant(xdr.expectUnionVariant(result.result, 'txSuccess').results[0]!, 'opInner').tr;
    const received = xdr.expectUnionVariant(tr, 'pathPaymentStrictReceive').pathPaymentStrictReceiveResult;
    const success = xdr.expectUnionVariant(received, 'pathPaymentStrictReceiveSuccess').success;
    expect(success.offers).toHaveLength(1);
    expect(success.last.amount.toString()).toBe('100000000');
    expect(balanceOf(await sb.horizon.loadAccount(shop.publicKey()), USDC)).toBe('10.0000000');
    expect(balanceOf(await sb.horizon.loadAccount(payer.publicKey()), Asset.native())).toBe('899.9999900');
    const mm = await sb.horizon.loadAccount(sb.keys.marketMaker.publicKey);
    const diff = (a: string | undefined, b: string | undefined) => Number(a) - Number(b);
    expect(diff(balanceOf(mm, Asset.native()), balanceOf(mmBefore, Asset.native()))).toBeCloseTo(100, 6);
    expect(diff(balanceOf(mm, USDC), balanceOf(mmBefore, USDC))).toBeCloseTo(-10, 6);
  });

  it('converts XLM to EURC in two hops via USDC (strict send) and honours destMin', async () => {
    const payer = await fundedAccount(sb, '1000');
    const shop = await merchant(EURC);
    const ok = await buildTx(sb, payer, [Operation.pathPaymentStrictSend({
      sendAsset: Asset.native(), sendAmount: '108', destination: shop.publicKey(), destAsset: EURC, destMin: '9.99', path: [USDC],
    })]);
    await sb.horizon.submitTransaction(ok);
    expect(balanceOf(await sb.horizon.loadAccount(shop.publicKey()), EURC)).toBe('10.0000000');
    const tooGreedy = await buildTx(sb, payer, [Operation.pathPaymentStrictSend({
      sendAsset: Asset.native(), sendAmount: '10', destination: shop.publicKey(), destAsset: EURC, destMin: '1', path: [USDC],
    })]);
    const fail = await submitExpectingFailure(sb, tooGreedy);
    expect(fail.data.extras.result_codes).toEqual({ transaction: 'tx_failed', operations: ['op_under_dest_min'] });
  });

  it('fails with op_over_source_max and op_too_few_offers', async () => {
    const payer = await fundedAccount(sb, '1000');
    const shop = await merchant(USDC);
    const over = await buildTx(sb, payer, [Operation.pathPaymentStrictReceive({
      sendAsset: Asset.native(), sendMax: '99.9999999', destination: shop.publicKey(), destAsset: USDC, destAmount: '10', path: [],
    })]);
    expect((await submitExpectingFailure(sb, over)).data.extras.result_codes.operations).toEqual(['op_over_source_max']);
    const odd = new Asset('ODD', Keypair.random().publicKey());
    const none = await buildTx(sb, payer, [Operation.pathPaymentStrictSend({
      sendAsset: Asset.native(), sendAmount: '1', destination: shop.publicKey(), destAsset: USDC, destMin: '0.01', path: [odd],
    })]);
    expect((await submitExpectingFailure(sb, none)).data.extras.result_codes.operations).toEqual(['op_too_few_offers']);
  });
});
