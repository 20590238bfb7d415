/**
 * Pays a Fundkit checkout the way any Stellar wallet would, with nothing but @stellar/stellar-sdk:
 * read the intent's public view, make a fresh keypair, get XLM and USDC from the sandbox
 * friendbot, add a trustline, sign a payment to the deposit address, wait for CREDITED.
 *
 *   node pay.js fi_…        (FUNDKIT_API_BASE, default http://localhost:4010)
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Asset, Horizon, Keypair, Networks, Operation, TransactionBuilder } from '@stellar/stellar-sdk';

/**
 * Pays intent `intentId` in full from a new sandbox account. The public view needs a publishable
 * key (or a checkout session token): pk_test_… from FUNDKIT_PUBLISHABLE_KEY or .fundkit/.
 * Returns the payer, the payment's transaction hash and the intent's final public view.
 */
export async function payIntent({ intentId, apiBase = 'http://localhost:4010', publishableKey, log = console.log, timeoutMs = 60_000 }) {
  const api = apiBase.replace(/\/+$/, '');
  const read = () => publicIntent(api, intentId, publishableKey);
  const { funding_instructions: pay } = await read();
  const horizonUrl = `${api}/sandbox/horizon`;
  const horizon = new Horizon.Server(horizonUrl, { allowHttp: horizonUrl.startsWith('http://') });
  const passphrase = (await getJson(horizonUrl)).network_passphrase ?? Networks.STANDALONE;
  const payer = Keypair.random();
  const asset = pay.asset.issuer ? new Asset(pay.asset.code, pay.asset.issuer) : Asset.native();
  log(`Paying ${pay.amount} ${pay.asset.code} to ${pay.deposit.address} from a new account ${payer.publicKey()}`);
  await horizon.friendbot(payer.publicKey()).call();
  if (!asset.isNative()) await getAsset(horizon, horizonUrl, payer, asset, pay.amount, passphrase);
  const payment = Operation.payment({ destination: pay.deposit.address, asset, amount: pay.amount });
  const sent = await submit(horizon, payer, passphrase, payment);
  log(`  submitted: transaction ${sent.hash} in ledger ${sent.ledger}`);
  const intent = await waitFor(read, (view) => view.status === 'CREDITED', timeoutMs);
  log(`Intent ${intent.id}: ${intent.status}, received ${intent.received_amount} of ${intent.requirement.amount} ${intent.requirement.asset}`);
  return { payer: payer.publicKey(), transactionHash: sent.hash, intent };
}

/** As on testnet: trust the asset first (a wallet's "add asset"), then ask the friendbot for it. */
async function getAsset(horizon, horizonUrl, payer, asset, amount, passphrase) {
  await submit(horizon, payer, passphrase, Operation.changeTrust({ asset }));
  const query = new URLSearchParams({ addr: payer.publicKey(), asset: asset.getCode(), amount });
  await getJson(`${horizonUrl}/friendbot?${query}`);
}

async function submit(horizon, signer, passphrase, operation) {
  const account = await horizon.loadAccount(signer.publicKey());
  const tx = new TransactionBuilder(account, { fee: '100', networkPassphrase: passphrase })
    .addOperation(operation).setTimeout(60).build();
  tx.sign(signer);
  return horizon.submitTransaction(tx);
}

function publicIntent(api, id, publishableKey) {
  return getJson(`${api}/v1/public/funding-intents/${encodeURIComponent(id)}`, { authorization: `Bearer ${publishableKey}` });
}

async function getJson(url, headers = {}) {
  const res = await fetch(url, { headers });
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new Error(`GET ${url} → ${res.status}: ${JSON.stringify(body)}`);
  return body;
}

async function waitFor(read, done, timeoutMs) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`intent ${value.id} still ${value.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The publishable key `pnpm start` saved in this clone (`.fundkit/sandbox-keys.json`, found by walking up). */
function savedPublishableKey() {
  for (let dir = resolve(process.cwd()); ; dir = dirname(dir)) {
    const file = join(dir, '.fundkit', 'sandbox-keys.json');
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')).applications?.[0]?.publishable_keys?.[0];
    if (dirname(dir) === dir) return undefined;
  }
}

async function main() {
  const intentId = process.argv[2];
  const publishableKey = process.env.FUNDKIT_PUBLISHABLE_KEY ?? savedPublishableKey();
  if (!intentId || !publishableKey) {
    console.error('usage: node pay.js fi_…  (with FUNDKIT_PUBLISHABLE_KEY=pk_test_…, or after `pnpm start` saved keys in .fundkit/)');
    process.exit(2);
  }
  await payIntent({ intentId, publishableKey, apiBase: process.env.FUNDKIT_API_BASE });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error) => {
    console.error(error.response?.data ? JSON.stringify(error.response.data, null, 2) : error.message);
    process.exit(1);
  });
}
