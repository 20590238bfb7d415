import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Asset, Keypair, Memo, NotFoundError, Operation, TransactionBuilder, xdr } from '@stellar/stellar-sdk';
import {
  balanceOf, buildTx, fundedAccount, PASSPHRASE, startSandbox, stroops, submitExpectingFailure, USDC, type Sandbox,
} from './helpers.js';

let sb: Sandbox;
beforeEach(async () => { sb = await startSandbox(); });
afterEach(async () => { await sb.close(); });

describe('sandbox Horizon: submitting real envelopes', () => {
  it('serves the root with the network passphrase and 404s unknown accounts', async () => {
    const root = await sb.horizon.root();
    expect(root.network_passphrase).toBe(PASSPHRASE);
    await expect(sb.horizon.loadAccount(Keypair.random().publicKey())).rejects.toBeInstanceOf(NotFoundError);
  });

  it('creates an account, then pays XLM with a memo; fee and sequence are consumed', async () => {
    const alice = await fundedAccount(sb, '100');
    const bob = Keypair.random();
    const before = await sb.horizon.loadAccount(alice.publicKey());
    const create = await buildTx(sb, alice, [Operation.createAccount({ destination: bob.publicKey(), startingBalance: '10' })]);
    const res = await sb.horizon.submitTransaction(create);
    expect(res.successful).toBe(true);
    expect(xdr.TransactionResult.fromXdr(res.result_xdr, 'base64').result.type).toBe('txSuccess');
    const pay = await buildTx(sb, alice, [Operation.payment({ destination: bob.publicKey(), asset: Asset.native(), amount: '2.5' })],
      { memo: Memo.text('order-42') });
    const paid = await sb.horizon.submitTransaction(pay);
    expect(paid.ledger).toBe(res.ledger + 1);
    const tx = await sb.horizon.transactions().transaction(paid.hash).call();
    expect(tx).toMatchObject({ memo: 'order-42', memo_type: 'text', fee_charged: '100', successful: true });
    const a = await sb.horizon.loadAccount(alice.publicKey());
    expect(a.sequence).toBe((BigInt(before.sequence) + 2n).toString());
    expect(balanceOf(a, Asset.native())).toBe('87.4999800');
    expect(balanceOf(await sb.horizon.loadAccount(bob.publicKey()), Asset.native())).toBe('12.5000000');
  });

  it('adds a trustline, receives USDC, removes it and merges the account away', async () => {
    const payer = await fundedAccount(sb, '50', { asset: USDC, amount: '100' });
    const shop = await fundedAccount(sb, '10');
    const trust = await buildTx(sb, shop, [Operation.changeTrust({ asset: USDC })]);
    await sb.horizon.submitTransaction(trust);
    const pay = await buildTx(sb, payer, [Operation.payment({ destination: shop.publicKey(), asset: USDC, amount: '25' })]);
    await sb.horizon.submitTransaction(pay);
    const acc = await sb.horizon.loadAccount(shop.publicKey());
    expect(balanceOf(acc, USDC)).toBe('25.0000000');
    expect(acc.subentry_count).toBe(1);
    const back = await buildTx(sb, shop, [
      Operation.payment({ destination: payer.publicKey(), asset: USDC, amount: '25' }),
      Operation.changeTrust({ asset: USDC, limit: '0' }),
      Operation.accountMerge({ destination: payer.publicKey() }),
    ]);
    await sb.horizon.submitTransaction(back);
    await expect(sb.horizon.loadAccount(shop.publicKey())).rejects.toBeInstanceOf(NotFoundError);
    const p = await sb.horizon.loadAccount(payer.publicKey());
    expect(balanceOf(p, USDC)).toBe('100.0000000');
    // 50 XLM + 0.5 (faucet pays the trustline reserve) - 100 stroops fee + (10 - 400 stroops fees) merged in.
    expect(balanceOf(p, Asset.native())).toBe('60.4999500');
  });

  it('sponsors a deposit account and its trustline from the treasury (several signers)', async () => {
    const deposit = Keypair.random();
    const tx = await buildTx(sb, sb.treasury, [
      Operation.beginSponsoringFutureReserves({ sponsoredId: deposit.publicKey() }),
      Operation.createAccount({ destination: deposit.publicKey(), startingBalance: '0' }),
      Operation.changeTrust({ asset: USDC, source: deposit.publicKey() }),
      Operation.endSponsoringFutureReserves({ source: deposit.publicKey() }),
    ], { signers: [sb.treasury, deposit] });
    const res = await sb.horizon.submitTransaction(tx);
    expect(res.successful).toBe(true);
    const acc = await sb.horizon.loadAccount(deposit.publicKey());
    expect(acc).toMatchObject({ num_sponsored: 3, subentry_count: 1 });
    expect(balanceOf(acc, Asset.native())).toBe('0.0000000');
    const treasury = await sb.horizon.loadAccount(sb.treasury.publicKey());
    expect(treasury.num_sponsoring).toBe(3);
  });

  it('rejects bad sequence numbers and missing signatures without touching the account', async () => {
    const alice = await fundedAccount(sb, '20');
    const tx = await buildTx(sb, alice, [Operation.payment({ destination: alice.publicKey(), asset: Asset.native(), amount: '1' })]);
    await sb.horizon.submitTransaction(tx);
    const replay = await submitExpectingFailure(sb, tx);
    expect(replay.status).toBe(400);
    expect(replay.data.extras.result_codes).toEqual({ transaction: 'tx_bad_seq' });
    expect(replay.data.extras.result_xdr).toBe('AAAAAAAAAAD////7AAAAAA==');
    const before = await sb.horizon.loadAccount(alice.publicKey());
    const wrongKey = await buildTx(sb, alice, [Operation.payment({ destination: alice.publicKey(), asset: Asset.native(), amount: '1' })],
      { signers: [Keypair.random()] });
    expect((await submitExpectingFailure(sb, wrongKey)).data.extras.result_codes).toEqual({ transaction: 'tx_bad_auth' });
    const after = await sb.horizon.loadAccount(alice.publicKey());
    expect(after.sequence).toBe(before.sequence);
    expect(balanceOf(after, Asset.native())).toBe(balanceOf(before, Asset.native()));
  });

  it('rejects a transaction signed for another network and a too-low fee', async () => {
    const alice = await fundedAccount(sb, '20');
    const account = await sb.horizon.loadAccount(alice.publicKey());
    const tx = new TransactionBuilder(account, { fee: '100', networkPassphrase: 'Test SDF Network ; September 2015' })
      .addOperation(Operation.payment({ destination: alice.publicKey(), asset: Asset.native(), amount: '1' }))
      .setTimeout(60).build();
    tx.sign(alice);
    const wrongNet = await sb.horizon.submitTransaction(tx).catch((e: { response: { data: { extras: { result_codes: unknown } } } }) => e.response.data);
    expect((wrongNet as { extras: { result_codes: unknown } }).extras.result_codes).toEqual({ transaction: 'tx_bad_auth' });
    const cheap = await buildTx(sb, alice, [Operation.payment({ destination: alice.publicKey(), asset: Asset.native(), amount: '1' })], { fee: '1' });
    const fail = await submitExpectingFailure(sb, cheap);
    expect(fail.data.extras.result_codes).toEqual({ transaction: 'tx_insufficient_fee' });
    expect(fail.data.extras.result_xdr).toBe('AAAAAAAAAGT////3AAAAAA==');
  });

  it('fails operations with Horizon codes, charging only fee and sequence', async () => {
    const alice = await fundedAccount(sb, '10');
    const bob = await fundedAccount(sb, '10');
    const cases: Array<[xdr.Operation, string]> = [
      [Operation.payment({ destination: bob.publicKey(), asset: Asset.native(), amount: '9.5' }), 'op_underfunded'],
      [Operation.payment({ destination: bob.publicKey(), asset: USDC, amount: '1' }), 'op_no_trust'],
      [Operation.payment({ destination: Keypair.random().publicKey(), asset: Asset.native(), amount: '1' }), 'op_no_destination'],
      [Operation.createAccount({ destination: Keypair.random().publicKey(), startingBalance: '0.5' }), 'op_low_reserve'],
      [Operation.createAccount({ destination: bob.publicKey(), startingBalance: '1' }), 'op_already_exists'],
    ];
    for (const [op, code] of cases) {
      const before = await sb.horizon.loadAccount(alice.publicKey());
      const fail = await submitExpectingFailure(sb, await buildTx(sb, alice, [op]));
      expect(fail.data.extras.result_codes).toEqual({ transaction: 'tx_failed', operations: [code] });
      const after = await sb.horizon.loadAccount(alice.publicKey());
      expect(after.sequence).toBe((BigInt(before.sequence) + 1n).toString());
      expect(stroops(balanceOf(before, Asset.native())!) - stroops(balanceOf(after, Asset.native())!)).toBe(100n);
    }
    // Failed transactions are history too, left out of lists unless asked for, as in Horizon.
    const listed = await sb.horizon.transactions().forAccount(alice.publicKey()).call();
    expect(listed.records).toHaveLength(0);
    const withFailed = await sb.horizon.transactions().forAccount(alice.publicKey()).includeFailed(true).call();
    expect(withFailed.records.map((t) => t.successful)).toEqual(cases.map(() => false));
  });

  it('keeps the reserve: (2 + subentries + sponsoring − sponsored) × 0.5 XLM', async () => {
    const alice = await fundedAccount(sb, '2.5');
    const t1 = await buildTx(sb, alice, [Operation.changeTrust({ asset: USDC })]);
    await sb.horizon.submitTransaction(t1); // min 1.5 XLM, balance 2.4999900
    const eurc = new Asset('EURC', USDC.getIssuer());
    const t2 = await buildTx(sb, alice, [Operation.changeTrust({ asset: eurc })]);
    await sb.horizon.submitTransaction(t2); // min 2 XLM, balance 2.4999800
    const spend = await buildTx(sb, alice, [Operation.payment({ destination: sb.treasury.publicKey(), asset: Asset.native(), amount: '0.4999701' })]);
    expect((await submitExpectingFailure(sb, spend)).data.extras.result_codes.operations).toEqual(['op_underfunded']);
    // Now 2.4999700: exactly 0.49997 above the 2 XLM minimum.
    const ok = await buildTx(sb, alice, [Operation.payment({ destination: sb.treasury.publicKey(), asset: Asset.native(), amount: '0.4999500' })]);
    await sb.horizon.submitTransaction(ok); // 2.0000100 left: one fee above the minimum
    expect(balanceOf(await sb.horizon.loadAccount(alice.publicKey()), Asset.native())).toBe('2.0000100');
    const t3 = await buildTx(sb, alice, [Operation.changeTrust({ asset: new Asset('XYZ', USDC.getIssuer()) })]);
    expect((await submitExpectingFailure(sb, t3)).data.extras.result_codes.operations).toEqual(['op_low_reserve']);
    // Now exactly at the minimum: not even a fee can be paid.
    const t4 = await buildTx(sb, alice, [Operation.payment({ destination: sb.treasury.publicKey(), asset: Asset.native(), amount: '0.0000001' })]);
    expect((await submitExpectingFailure(sb, t4)).data.extras.result_codes).toEqual({ transaction: 'tx_insufficient_balance' });
  });

  it('applies a fee-bump paid by another account', async () => {
    const alice = await fundedAccount(sb, '10');
    const payer = await fundedAccount(sb, '10');
    const inner = await buildTx(sb, alice, [Operation.payment({ destination: payer.publicKey(), asset: Asset.native(), amount: '1' })], { fee: '0' });
    const bump = TransactionBuilder.buildFeeBumpTransaction(payer, '200', inner, PASSPHRASE);
    bump.sign(payer);
    const res = await sb.horizon.submitTransaction(bump);
    expect(res.successful).toBe(true);
    const tx = await sb.horizon.transactions().transaction(res.hash).call();
    expect(tx).toMatchObject({ fee_account: payer.publicKey(), source_account: alice.publicKey(), fee_charged: '200' });
    expect((tx as unknown as { inner_transaction: { hash: string } }).inner_transaction.hash).toBe(Buffer.from(inner.hash()).toString('hex'));
    expect(balanceOf(await sb.horizon.loadAccount(alice.publicKey()), Asset.native())).toBe('9.0000000'); // the fee is not hers
    expect(balanceOf(await sb.horizon.loadAccount(payer.publicKey()), Asset.native())).toBe('10.9999800');
  });

  it('reports an inner failure of a fee-bump', async () => {
    const alice = await fundedAccount(sb, '10');
    const payer = await fundedAccount(sb, '10');
    const inner = await buildTx(sb, alice, [Operation.payment({ destination: payer.publicKey(), asset: USDC, amount: '1' })], { fee: '0' });
    const bump = TransactionBuilder.buildFeeBumpTransaction(payer, '200', inner, PASSPHRASE);
    bump.sign(payer);
    const fail = await submitExpectingFailure(sb, bump);
    expect(fail.data.extras.result_codes).toEqual({
      transaction: 'tx_fee_bump_inner_failed', inner_transaction: 'tx_failed', operations: ['op_no_trust'],
    });
  });
});
