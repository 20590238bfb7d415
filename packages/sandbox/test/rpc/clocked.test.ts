/**
 * The RPC on a sandbox that keeps time (`fundkit sandbox --ledger-seconds N`): sendTransaction
 * admits (PENDING), refuses a second transaction of the same source for this ledger
 * (TRY_AGAIN_LATER) and answers DUPLICATE for the same one; getTransaction finds it only once
 * its ledger has closed. The clock is stepped with closeNow (a long period never fires here).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Address, Asset, BASE_FEE, Contract, Keypair, nativeToScVal, Operation, rpc, TransactionBuilder, type Account,
} from '@stellar/stellar-sdk';
import { startStandaloneSandbox, type StandaloneSandbox } from '../../src/index.js';

let net: StandaloneSandbox;
let server: rpc.Server;

beforeAll(async () => {
  net = await startStandaloneSandbox({ dbPath: ':memory:', port: 0, ledgerSeconds: 3600 });
  server = new rpc.Server(net.rpcUrl, { allowHttp: true });
});
afterAll(async () => {
  await net?.close();
});

function pay(source: Account, signer: Keypair, amount: string) {
  const tx = new TransactionBuilder(source, { fee: BASE_FEE, networkPassphrase: net.passphrase })
    .addOperation(Operation.payment({ destination: signer.publicKey(), asset: Asset.native(), amount })).setTimeout(0).build();
  tx.sign(signer);
  return tx;
}

describe('sandbox RPC on a clocked ledger', () => {
  it('PENDING, DUPLICATE and TRY_AGAIN_LATER before the close; SUCCESS in the closed ledger', async () => {
    const alice = Keypair.random();
    // the friendbot waits for its grant's close: step the clock while it waits
    const granted = fetch(`${net.url}/friendbot?addr=${alice.publicKey()}`);
    await expect.poll(async () => (await net.ledger.closeNow(), await net.ledger.store.getAccount(alice.publicKey()))).toBeDefined();
    expect((await granted).status).toBe(200);

    const account = await server.getAccount(alice.publicKey());
    const first = pay(account, alice, '1');
    const sent = await server.sendTransaction(first);
    expect(sent.status).toBe('PENDING');
    expect((await server.sendTransaction(first)).status).toBe('DUPLICATE');
    expect((await server.sendTransaction(pay(account, alice, '2'))).status).toBe('TRY_AGAIN_LATER');
    expect((await server.getTransaction(sent.hash)).status).toBe('NOT_FOUND');

    const closed = await net.ledger.closeNow();
    const got = await server.getTransaction(sent.hash);
    expect(got).toMatchObject({ status: 'SUCCESS', ledger: closed, latestLedger: closed });
    const page = await server.getTransactions({ startLedger: closed, pagination: { limit: 10 } });
    expect(page.transactions.map((t) => t.txHash)).toEqual([sent.hash]);
    expect(page.latestLedger).toBe(closed);
  });

  it('a SAC transfer prepared on a clocked ledger applies at the close', async () => {
    const [alice, bob] = [Keypair.random(), Keypair.random()];
    for (const kp of [alice, bob]) {
      const granted = fetch(`${net.url}/friendbot?addr=${kp.publicKey()}`);
      await expect.poll(async () => (await net.ledger.closeNow(), await net.ledger.store.getAccount(kp.publicKey()))).toBeDefined();
      expect((await granted).status).toBe(200);
    }
    const xlm = new Contract(Asset.native().contractId(net.passphrase));
    const call = xlm.call('transfer', new Address(alice.publicKey()).toScVal(), new Address(bob.publicKey()).toScVal(), nativeToScVal(2_0000000n, { type: 'i128' }));
    const tx = await server.prepareTransaction(new TransactionBuilder(await server.getAccount(alice.publicKey()), {
      fee: BASE_FEE, networkPassphrase: net.passphrase,
    }).addOperation(call).setTimeout(0).build());
    tx.sign(alice);
    const xlmOf = async (id: string) => (await (await fetch(`${net.url}/accounts/${id}`)).json()).balances
      .find((b: { asset_type: string }) => b.asset_type === 'native').balance as string;
    expect(await xlmOf(bob.publicKey())).toBe('10000.0000000');
    const sent = await server.sendTransaction(tx);
    expect(sent.status).toBe('PENDING');
    expect((await server.getTransaction(sent.hash)).status).toBe('NOT_FOUND');
    const closed = await net.ledger.closeNow();
    expect(await server.getTransaction(sent.hash)).toMatchObject({ status: 'SUCCESS', ledger: closed });
    expect(await xlmOf(bob.publicKey())).toBe('10002.0000000');
  });
});
