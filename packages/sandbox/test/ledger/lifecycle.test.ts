import { afterEach, describe, expect, it } from 'vitest';
import { Asset, Keypair, Operation, TransactionBuilder } from '@stellar/stellar-sdk';
import {
  balanceOf, buildTx, fundedAccount, PASSPHRASE, startSandbox, submitExpectingFailure, USDC, type Sandbox,
} from './helpers.js';

let sb: Sandbox;
afterEach(async () => { await sb.close(); });

describe('sandbox deposit-account lifecycle and edge cases', () => {
  it('creates a sponsored deposit account, receives USDC, settles and merges back', async () => {
    sb = await startSandbox();
    const { treasury } = sb;
    const deposit = Keypair.random();
    const merchant = await fundedAccount(sb, '10');
    await sb.horizon.submitTransaction(await buildTx(sb, merchant, [Operation.changeTrust({ asset: USDC })]));
    await sb.horizon.submitTransaction(await buildTx(sb, treasury, [
      Operation.beginSponsoringFutureReserves({ sponsoredId: deposit.publicKey() }),
      Operation.createAccount({ destination: deposit.publicKey(), startingBalance: '0' }),
      Operation.changeTrust({ asset: USDC, source: deposit.publicKey() }),
      Operation.endSponsoringFutureReserves({ source: deposit.publicKey() }),
    ], { signers: [treasury, deposit] }));
    const payer = await fundedAccount(sb, '10', { asset: USDC, amount: '50' });
    await sb.horizon.submitTransaction(await buildTx(sb, payer, [
      Operation.payment({ destination: deposit.publicKey(), asset: USDC, amount: '25' }),
    ]));
    // Settlement: the treasury pays the fee, the deposit account signs for its own operations.
    const settle = await buildTx(sb, treasury, [
      Operation.payment({ source: deposit.publicKey(), destination: merchant.publicKey(), asset: USDC, amount: '25' }),
      Operation.changeTrust({ source: deposit.publicKey(), asset: USDC, limit: '0' }),
      Operation.accountMerge({ source: deposit.publicKey(), destination: treasury.publicKey() }),
    ], { signers: [treasury, deposit] });
    expect((await sb.horizon.submitTransaction(settle)).successful).toBe(true);
    expect(balanceOf(await sb.horizon.loadAccount(merchant.publicKey()), USDC)).toBe('25.0000000');
    const t = await sb.horizon.loadAccount(treasury.publicKey());
    expect(t.num_sponsoring).toBe(0);
    const records = await sb.horizon.payments().forAccount(deposit.publicKey()).call();
    expect(records.records.map((r) => r.type)).toEqual(['create_account', 'payment', 'payment', 'account_merge']);
  });

  it('leaves no half-sponsorship: an unterminated begin fails the whole transaction', async () => {
    sb = await startSandbox();
    const deposit = Keypair.random();
    const tx = await buildTx(sb, sb.treasury, [
      Operation.beginSponsoringFutureReserves({ sponsoredId: deposit.publicKey() }),
      Operation.createAccount({ destination: deposit.publicKey(), startingBalance: '0' }),
    ]);
    const fail = await submitExpectingFailure(sb, tx);
    expect(fail.data.extras.result_codes).toEqual({ transaction: 'tx_bad_sponsorship' });
    await expect(sb.horizon.loadAccount(deposit.publicKey())).rejects.toThrow('Not Found');
    expect((await sb.horizon.loadAccount(sb.treasury.publicKey())).num_sponsoring).toBe(0);
  });

  it('checks time bounds against the ledger clock', async () => {
    let now = Date.now();
    sb = await startSandbox(() => now);
    const alice = await fundedAccount(sb, '10');
    const tx = await buildTx(sb, alice, [Operation.payment({ destination: alice.publicKey(), asset: Asset.native(), amount: '1' })], { timeout: 30 });
    now += 60_000;
    expect((await submitExpectingFailure(sb, tx)).data.extras.result_codes).toEqual({ transaction: 'tx_too_late' });
  });

  it('answers malformed envelopes, unknown transactions and routes with Horizon problems', async () => {
    sb = await startSandbox();
    const res = await fetch(`${sb.url}/transactions`, {
      method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'tx=AAAA',
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(await res.json()).toMatchObject({ type: 'https://stellar.org/horizon-errors/transaction_malformed', extras: { envelope_xdr: 'AAAA' } });
    const json = await fetch(`${sb.url}/transactions`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ tx: 'AAAA' }),
    });
    expect(json.status).toBe(400);
    const missing = await fetch(`${sb.url}/transactions/${'0'.repeat(64)}`);
    expect(missing.status).toBe(404);
    expect((await missing.json()).title).toBe('Resource Missing');
    expect((await fetch(`${sb.url}/nope`)).status).toBe(404);
    const fees = await (await fetch(`${sb.url}/fee_stats`)).json();
    expect(fees.last_ledger_base_fee).toBe('100');
    const bad = await fetch(`${sb.url}/accounts/${sb.treasury.publicKey()}/payments?limit=500`);
    expect(bad.status).toBe(400);
  });

  it('charges the fee of a failed fee-bump to the fee account only', async () => {
    sb = await startSandbox();
    const alice = await fundedAccount(sb, '10');
    const payer = await fundedAccount(sb, '10');
    const inner = await buildTx(sb, alice, [Operation.payment({ destination: Keypair.random().publicKey(), asset: Asset.native(), amount: '1' })], { fee: '0' });
    const bump = TransactionBuilder.buildFeeBumpTransaction(payer, '200', inner, PASSPHRASE);
    bump.sign(payer);
    await submitExpectingFailure(sb, bump);
    expect(balanceOf(await sb.horizon.loadAccount(alice.publicKey()), Asset.native())).toBe('10.0000000');
    expect(balanceOf(await sb.horizon.loadAccount(payer.publicKey()), Asset.native())).toBe('9.9999800');
  });
});
