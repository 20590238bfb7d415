/** The reference server in sandbox mode serves the sandbox's Stellar RPC at /sandbox/rpc, beside /sandbox/horizon. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Asset, BASE_FEE, Keypair, Operation, rpc, TransactionBuilder } from '@stellar/stellar-sdk';
import type { TestServer } from '../helpers/server.js';
import { startPipelineServer } from '../pipeline/helpers.js';
import { SANDBOX_PASSPHRASE } from '@fundkit/sandbox';
import { rpcCall, sandboxRpcUrl } from '../helpers/sandbox-rpc.js';

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

  it('refuses the sandbox\'s controls to anyone who reaches the API; they answer only at the sandbox\'s own URL', async () => {
    const before = (await rpcCall(`${t.url}/sandbox/rpc`, 'getLatestLedger')).sequence as number;
    const call = (body: unknown) => fetch(`${t.url}/sandbox/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

    const one = await call({ jsonrpc: '2.0', id: 7, method: 'sandbox_closeLedger' });
    const refused = await one.json();
    expect(refused).toMatchObject({ id: 7, error: { code: -32601 } });
    expect(refused.error.message).toContain('sandbox_closeLedger');
    const batch = await (await call([{ jsonrpc: '2.0', id: 1, method: 'getHealth' }, { jsonrpc: '2.0', id: 2, method: 'sandbox_setOfferPrice', params: {} }])).json();
    expect(batch).toMatchObject({ id: null, error: { code: -32601 } });

    // the sandbox's own endpoint (loopback) still serves them
    const closed = (await rpcCall(sandboxRpcUrl(t), 'sandbox_closeLedger')).sequence as number;
    expect(closed).toBeGreaterThan(before);
  });
});
