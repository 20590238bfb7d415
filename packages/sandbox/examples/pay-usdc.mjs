#!/usr/bin/env node
// A USDC payment on a sandbox network, with nothing but @fundkit/sandbox and @stellar/stellar-sdk:
// start the network, fund two accounts from the friendbot, trust USDC, pay, read it back over
// Horizon and Stellar RPC. Run it: `node examples/pay-usdc.mjs` (after `pnpm build`).
import { Asset, BASE_FEE, Horizon, Keypair, Operation, rpc, TransactionBuilder } from '@stellar/stellar-sdk';
import { SANDBOX_ASSETS, startSandbox } from '@fundkit/sandbox';

const started = performance.now();
const net = await startSandbox(); // a free port of 127.0.0.1, a chain in memory
console.log(`sandbox up in ${Math.round(performance.now() - started)} ms: Horizon ${net.url}, RPC ${net.rpcUrl}`);

const horizon = new Horizon.Server(net.url, { allowHttp: true });
const server = new rpc.Server(net.rpcUrl, { allowHttp: true });
const USDC = new Asset('USDC', SANDBOX_ASSETS.USDC.issuer);

async function submit(source, operation) {
  const tx = new TransactionBuilder(await horizon.loadAccount(source.publicKey()), { fee: BASE_FEE, networkPassphrase: net.passphrase })
    .addOperation(operation).setTimeout(60).build();
  tx.sign(source);
  return horizon.submitTransaction(tx);
}

try {
  const alice = Keypair.random();
  const bob = Keypair.random();
  for (const who of [alice, bob]) {
    await horizon.friendbot(who.publicKey()).call(); // 10,000 XLM
    await submit(who, Operation.changeTrust({ asset: USDC }));
  }
  await fetch(`${net.friendbotUrl}?addr=${alice.publicKey()}&asset=USDC`); // USDC, now that alice trusts it

  const paid = await submit(alice, Operation.payment({ destination: bob.publicKey(), asset: USDC, amount: '12.5' }));
  console.log(`paid in ledger ${paid.ledger}: ${paid.hash}`);

  const [payment] = (await horizon.payments().forAccount(bob.publicKey()).order('desc').limit(1).call()).records;
  console.log(`Horizon: ${payment.amount} ${payment.asset_code} from ${payment.from.slice(0, 8)}… to ${payment.to.slice(0, 8)}…`);
  const tx = await server.getTransaction(paid.hash);
  console.log(`Stellar RPC: getTransaction ${tx.status} in ledger ${tx.ledger}`);
  const bobs = (await horizon.loadAccount(bob.publicKey())).balances.find((b) => b.asset_code === 'USDC');
  console.log(`bob holds ${bobs.balance} USDC`);
} finally {
  await net.close();
}
