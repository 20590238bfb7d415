/**
 * The sandbox friendbot through HTTP with the real stellar-sdk: what a wallet or Stellar Lab
 * pointed at /sandbox/horizon sees, and a checkout paid from a fresh keypair by examples/wallet.
 */
import Database from 'better-sqlite3';
import { Asset, Horizon, Keypair, Operation, TransactionBuilder, type Transaction } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, type TestServer } from '../helpers/server.js';
import { createIntent, startPipelineServer } from '../pipeline/helpers.js';
import { bootstrapSandbox, SANDBOX_ASSETS, SANDBOX_PASSPHRASE, SandboxLedger } from '@fundkit/sandbox';
import type { SqliteSql } from '../../src/db/sql.js';

type PayIntent = (options: Record<string, unknown>) => Promise<{ payer: string; transactionHash: string; intent: any }>;

let t: TestServer;
let horizon: Horizon.Server;
const USDC = new Asset('USDC', SANDBOX_ASSETS.USDC.issuer!);

beforeAll(async () => {
  t = await startPipelineServer();
  horizon = new Horizon.Server(`${t.url}/sandbox/horizon`, { allowHttp: true });
});
afterAll(() => t.close());

async function friendbot(query: string, path = '/sandbox/friendbot') {
  const res = await fetch(`${t.url}${path}?${query}`);
  return { status: res.status, type: res.headers.get('content-type'), body: await res.json() };
}

const nativeBalance = async (address: string) => (await horizon.loadAccount(address)).balances.find((b) => b.asset_type === 'native')?.balance;
const usdcBalance = async (address: string) =>
  (await horizon.loadAccount(address)).balances.find((b) => 'asset_code' in b && b.asset_code === 'USDC')?.balance;

async function signAndSubmit(signer: Keypair, operation: ReturnType<typeof Operation.changeTrust>) {
  const tx = new TransactionBuilder(await horizon.loadAccount(signer.publicKey()), { fee: '100', networkPassphrase: SANDBOX_PASSPHRASE })
    .addOperation(operation).setTimeout(60).build();
  tx.sign(signer);
  return horizon.submitTransaction(tx);
}

describe('genesis: the friendbot account', () => {
  it('is created with large XLM, USDC and EURC balances, once, and also in a database bootstrapped before it existed', async () => {
    const ledger = new SandboxLedger(new Database(':memory:'));
    const { friendbot } = await bootstrapSandbox(ledger);
    const holdings = async (id: string) => [(await ledger.store.getAccount(id))?.balance, ...await Promise.all([SANDBOX_ASSETS.USDC, SANDBOX_ASSETS.EURC]
      .map(async (a) => (await ledger.store.getTrustline(id, `${a.code}:${a.issuer}`))?.balance))];
    expect(await holdings(friendbot.publicKey)).toEqual([1_000_000_001_0000000n, 1_000_000_000_0000000n, 1_000_000_000_0000000n]);
    const ledgerBefore = await ledger.ledgerSequence();
    expect((await bootstrapSandbox(ledger)).friendbot).toEqual(friendbot);
    expect(await ledger.ledgerSequence()).toBe(ledgerBefore);
    // an older database: genesis ran (market_maker exists) but no friendbot key was ever stored
    (ledger.store.sql as SqliteSql).db.prepare("DELETE FROM sbx_keys WHERE role = 'friendbot'").run();
    const created = (await bootstrapSandbox(ledger)).friendbot;
    expect(created.publicKey).not.toBe(friendbot.publicKey);
    expect((await holdings(created.publicKey))[1]).toBe(1_000_000_000_0000000n);
  });
});

describe('friendbot?addr=: XLM', () => {
  it('creates the account with 10,000 XLM in a real createAccount transaction, answered as Horizon answers a transaction', async () => {
    const payer = Keypair.random();
    const res = await friendbot(`addr=${payer.publicKey()}`);
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^application\/hal\+json/);
    expect(res.body).toMatchObject({ successful: true, operation_count: 1, fee_charged: '100' });
    expect(res.body._links.self.href).toBe(`${t.url}/sandbox/horizon/transactions/${res.body.hash}`);
    const tx = TransactionBuilder.fromXDR(res.body.envelope_xdr, SANDBOX_PASSPHRASE) as Transaction;
    expect(tx.operations[0]).toMatchObject({ type: 'createAccount', destination: payer.publicKey(), startingBalance: '10000.0000000' });
    expect(res.body.source_account).toBe(tx.source);
    expect(tx.source).not.toBe(payer.publicKey());
    expect(await nativeBalance(payer.publicKey())).toBe('10000.0000000');
    // it is in the ledger's history like any transaction
    const stored = await horizon.transactions().transaction(res.body.hash).call();
    expect(stored.envelope_xdr).toBe(res.body.envelope_xdr);
  });

  it('refuses an account already holding 10,000 XLM as the real friendbot does', async () => {
    const payer = Keypair.random();
    expect((await friendbot(`addr=${payer.publicKey()}`)).status).toBe(200);
    const again = await friendbot(`addr=${payer.publicKey()}`);
    expect(again.status).toBe(400);
    expect(again.type).toMatch(/^application\/problem\+json/);
    expect(again.body).toEqual({
      type: 'https://stellar.org/horizon-errors/bad_request', title: 'Bad Request', status: 400, detail: 'account already funded to starting balance',
    });
  });

  it('tops up with a 10,000 XLM payment an existing account that spent below that (testnet friendbot since 2024)', async () => {
    const payer = Keypair.random();
    await friendbot(`addr=${payer.publicKey()}`);
    await signAndSubmit(payer, Operation.changeTrust({ asset: USDC }));
    const res = await friendbot(`addr=${payer.publicKey()}`);
    expect(res.status).toBe(200);
    const tx = TransactionBuilder.fromXDR(res.body.envelope_xdr, SANDBOX_PASSPHRASE) as Transaction;
    expect(tx.operations[0]).toMatchObject({ type: 'payment', destination: payer.publicKey(), amount: '10000.0000000' });
    expect(await nativeBalance(payer.publicKey())).toBe('19999.9999900');
  });

  it('answers bad_request on addr for a missing or invalid address', async () => {
    // The last character changed to a different one, so the checksum is always wrong (a key that
    // already ended in the replacement would stay valid: the flake of CI run 22).
    const key = Keypair.random().publicKey();
    const badChecksum = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
    for (const query of ['', 'addr=', 'addr=NOTANACCOUNT', `addr=${badChecksum}`, `addr=${Keypair.random().secret()}`]) {
      const res = await friendbot(query);
      expect(res.status, query).toBe(400);
      expect(res.type).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ type: 'https://stellar.org/horizon-errors/bad_request', status: 400, extras: { invalid_field: 'addr' } });
    }
  });

  it('is where the SDK looks: Horizon.Server#friendbot at /sandbox/horizon/friendbot', async () => {
    const payer = Keypair.random();
    const res = (await horizon.friendbot(payer.publicKey()).call()) as unknown as { hash: string; successful: boolean };
    expect(res.successful).toBe(true);
    expect(await nativeBalance(payer.publicKey())).toBe('10000.0000000');
    const again = await friendbot(`addr=${payer.publicKey()}`, '/sandbox/horizon/friendbot');
    expect(again.body.detail).toBe('account already funded to starting balance');
  });
});

describe('friendbot?addr=&asset=USDC: sandbox USDC for an account that trusts it', () => {
  it('refuses an unknown account, an account without the trustline, an unknown asset and a bad amount', async () => {
    const payer = Keypair.random();
    const missing = await friendbot(`addr=${payer.publicKey()}&asset=USDC`);
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toContain(`create it first with friendbot?addr=${payer.publicKey()}`);
    await friendbot(`addr=${payer.publicKey()}`);
    const untrusted = await friendbot(`addr=${payer.publicKey()}&asset=USDC`);
    expect(untrusted.status).toBe(400);
    expect(untrusted.body).toMatchObject({ type: 'https://stellar.org/horizon-errors/bad_request', title: 'Bad Request' });
    expect(untrusted.body.detail).toContain(`no trustline to USDC:${SANDBOX_ASSETS.USDC.issuer}`);
    expect((await friendbot(`addr=${payer.publicKey()}&asset=BTC`)).body.extras).toMatchObject({ invalid_field: 'asset' });
    for (const amount of ['100000.0000001', '0', '1.12345678', '-5', 'ten']) {
      const res = await friendbot(`addr=${payer.publicKey()}&asset=EURC&amount=${amount}`);
      expect([res.status, res.body.extras?.invalid_field], amount).toEqual([400, 'amount']);
    }
    expect(await usdcBalance(payer.publicKey())).toBeUndefined();
  });

  it('with a trustline pays 1,000 by default, or the amount asked, in real payment transactions', async () => {
    const payer = Keypair.random();
    await friendbot(`addr=${payer.publicKey()}`);
    await signAndSubmit(payer, Operation.changeTrust({ asset: USDC }));
    const res = await friendbot(`addr=${payer.publicKey()}&asset=USDC`);
    expect(res.status).toBe(200);
    const tx = TransactionBuilder.fromXDR(res.body.envelope_xdr, SANDBOX_PASSPHRASE) as Transaction;
    expect(tx.operations[0]).toMatchObject({ type: 'payment', destination: payer.publicKey(), amount: '1000.0000000' });
    expect((tx.operations[0] as { asset: Asset }).asset.equals(USDC)).toBe(true);
    expect(await usdcBalance(payer.publicKey())).toBe('1000.0000000');
    expect((await friendbot(`addr=${payer.publicKey()}&asset=usdc&amount=250.5`)).status).toBe(200);
    expect(await usdcBalance(payer.publicKey())).toBe('1250.5000000');
  });

  it('reports a payment the ledger refuses (trustline limit) as transaction_failed, not a 500', async () => {
    const payer = Keypair.random();
    await friendbot(`addr=${payer.publicKey()}`);
    await signAndSubmit(payer, Operation.changeTrust({ asset: USDC, limit: '10' }));
    const res = await friendbot(`addr=${payer.publicKey()}&asset=USDC&amount=20`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      type: 'https://stellar.org/horizon-errors/transaction_failed',
      extras: { result_codes: { transaction: 'tx_failed', operations: ['op_line_full'] } },
    });
    expect(await usdcBalance(payer.publicKey())).toBe('0.0000000');
  });
});

describe('a wallet with nothing but stellar-sdk (examples/wallet)', () => {
  it('pays a checkout from a fresh keypair until the intent is CREDITED', async () => {
    const intent = await createIntent(t, { amount: '25.00', asset: 'USDC' });
    // a path in a variable: the example is plain JavaScript, typed here by PayIntent
    const entry = new URL('../../../../examples/wallet/pay.js', import.meta.url).href;
    const { payIntent } = (await import(entry)) as { payIntent: PayIntent };
    const lines: string[] = [];
    const paid = await payIntent({ intentId: intent.id, apiBase: t.url, publishableKey: KEYS.alphaPublishableTest, log: (l: string) => lines.push(l), timeoutMs: 10_000 });
    expect(paid.intent).toMatchObject({ id: intent.id, status: 'CREDITED', received_amount: '25.0000000' });
    const payment = await horizon.transactions().transaction(paid.transactionHash).call();
    expect(payment.source_account).toBe(paid.payer);
    expect(lines.at(-1)).toBe(`Intent ${intent.id}: CREDITED, received 25.0000000 of 25.0000000 USDC`);
  });
});
