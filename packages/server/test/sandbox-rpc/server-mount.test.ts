/** The reference server in sandbox mode serves the sandbox's Stellar RPC at /sandbox/rpc, beside /sandbox/horizon. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Asset, BASE_FEE, Keypair, Operation, rpc, TransactionBuilder } from '@stellar/stellar-sdk';
import type { TestServer } from '../helpers/server.js';
import { startPipelineServer } from '../pipeline/helpers.js';
import { SANDBOX_PASSPHRASE } from '@fundkit/sandbox';

let t: TestServer;
let server: rpc.Server;

beforeAll(async () => {
  t = await startPipelineServer();
  server = new rpc.Server(`${t.url}/sandbox/rpc`, { allowHttp: true });
});
afterAll(() => t.close());

describe('/sandbox/rpc on the reference server', () => {
  it('answers rpc.Server with the sandbox network, its friendbot and its transactions', async () => {
    const network = await server.getNetwork();
    expect(network.passphrase).toBe(SANDBOX_PASSPHRASE);
    expect(network.friendbotUrl).toBe(`${t.url}/sandbox/friendbot`);

    const payer = Keypair.random();
    expect((await fetch(`${network.friendbotUrl}?addr=${payer.publicKey()}`)).status).toBe(200);
    const tx = new TransactionBuilder(await server.getAccount(payer.publicKey()), { fee: BASE_FEE, networkPassphrase: network.passphrase })
      .addOperation(Operation.payment({ destination: payer.publicKey(), asset: Asset.native(), amount: '1' })).setTimeout(60).build();
    tx.sign(payer);
    const sent = await server.sendTransaction(tx);
    expect(sent.status).toBe('PENDING');
    await expect.poll(async () => (await server.getTransaction(sent.hash)).status).toBe('SUCCESS');
    // the same transaction through the server's Horizon
    const horizon = await (await fetch(`${t.url}/sandbox/horizon/transactions/${sent.hash}`)).json();
    expect(horizon.successful).toBe(true);
  });
});
