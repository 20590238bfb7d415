/**
 * SandboxNetwork: the server's StellarNetwork over an in-process @fundkit/sandbox ledger
 * (FUNDKIT_SANDBOX_NETWORK=in-process). The ledger's own Horizon is tested in @fundkit/sandbox.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Asset, Memo, Operation } from '@stellar/stellar-sdk';
import { SandboxNetwork } from '../../src/stellar/sandbox/network.js';
import { buildTx, fundedAccount, startSandbox, type Sandbox } from './helpers.js';

let sb: Sandbox;
beforeEach(async () => { sb = await startSandbox(); });
afterEach(async () => { await sb.close(); });

describe('SandboxNetwork', () => {
  it('implements StellarNetwork over the same ledger (list, ledger reads, paths, submit)', async () => {
    const network = new SandboxNetwork(sb.ledger, sb.url);
    expect(network.assets.USDC.issuer).toBe('GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5');
    const alice = await fundedAccount(sb, '100');
    const shop = await fundedAccount(sb, '10');
    const tx = await buildTx(sb, alice, [Operation.payment({ destination: shop.publicKey(), asset: Asset.native(), amount: '4' })],
      { memo: Memo.id('42') });
    const submitted = await network.submitTransaction(tx.toXDR());
    expect(submitted).toMatchObject({ successful: true, hash: Buffer.from(tx.hash()).toString('hex') });
    // the ledger follower's read: every account's payments of the ledger, with the transaction joined
    const read = await network.readLedgers(submitted.ledger!, 1);
    expect(read).toMatchObject({ through: submitted.ledger, latest: submitted.ledger });
    const seen = read.records.filter((r) => r.type === 'payment' && r.to === shop.publicKey());
    expect(seen).toHaveLength(1);
    expect(seen[0]!.transaction).toMatchObject({ memo: '42', memo_type: 'id' });
    const again = await network.submitTransaction(tx.toXDR());
    expect(again).toMatchObject({ successful: false, ledger: null, resultCodes: { transaction: 'tx_bad_seq' } });
    const page = await network.listPayments(shop.publicKey(), { order: 'desc', limit: 1 });
    expect(page.records[0]!.id).toBe(seen[0]!.id);
    const account = await network.loadAccount(shop.publicKey());
    expect(account!.balances.at(-1)).toEqual({ asset: network.assets.XLM, balance: 140_000_000n, limit: null });
    const quotes = await network.findStrictReceivePaths({ sourceAssets: [network.assets.XLM], destinationAsset: network.assets.USDC, destinationAmount: 10_000_000n });
    expect(quotes[0]!.sourceAmount).toBe(100_000_000n);
    expect((await network.getTransaction(submitted.hash))!.memo).toBe('42');
  });
});
