import { chainAt } from '../crash/invariants.js';
import { rows, run } from '../helpers/raw-sql.js';
import { Asset, BASE_FEE, Horizon, Keypair, Operation, TransactionBuilder } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_ASSETS } from '@fundkit/sandbox';
import { KEYS, type TestServer } from '../helpers/server.js';
import { createIntent, eventTypes, history, key, pay, startPipelineServer, waitFor, waitForIntent } from './helpers.js';

let t: TestServer;
let horizon: Horizon.Server;
const USDC = new Asset('USDC', SANDBOX_ASSETS.USDC.issuer!);
beforeAll(async () => {
  t = await startPipelineServer();
  horizon = new Horizon.Server(`${t.url}/sandbox/horizon`, { allowHttp: true });
});
afterAll(() => t.close());

/** the sandbox (its own thread): its faucet, and its network's passphrase */
const sandbox = () => t.server.services.pipeline.pipeline.stellar!.sandbox!;
const passphrase = () => t.server.services.pipeline.pipeline.stellar!.network.passphrase;
const payments = async (intentId: string) => (await t.request('GET', `/v1/funding-intents/${intentId}/payments`, { key })).body.data as any[];

/** A wallet: a faucet-funded account that signs its own transactions, submitted through Horizon.Server. */
async function wallet(usdc = '100', xlm = '1000') {
  const kp = Keypair.random();
  await sandbox().fund(kp.publicKey(), SANDBOX_ASSETS.XLM, BigInt(Number(xlm)) * 10_000_000n);
  if (Number(usdc) > 0) await sandbox().fund(kp.publicKey(), SANDBOX_ASSETS.USDC, BigInt(Number(usdc)) * 10_000_000n);
  else await sandbox().fund(kp.publicKey(), SANDBOX_ASSETS.USDC, 1n);
  return kp;
}

async function submit(source: Keypair, ops: ReturnType<typeof Operation.payment>[]) {
  const account = await horizon.loadAccount(source.publicKey());
  const builder = new TransactionBuilder(account, { fee: BASE_FEE, networkPassphrase: passphrase() });
  ops.forEach((op) => builder.addOperation(op));
  const tx = builder.setTimeout(60).build();
  tx.sign(source);
  return horizon.submitTransaction(tx, { skipMemoRequiredCheck: true });
}

describe('the observer', () => {
  it('applies a payment a plain Horizon.Server submitted (not the helper)', async () => {
    const intent = await createIntent(t);
    const payer = await wallet();
    const result = await submit(payer, [Operation.payment({ destination: intent.deposit_account.address, asset: USDC, amount: '25' })]);
    expect(result.successful).toBe(true);
    const done = await waitForIntent(t, intent.id, (i) => i.status === 'CREDITED');
    expect(done.payment).toMatchObject({ transaction_hash: result.hash, payer_address: payer.publicKey(), status: 'CONFIRMED' });
  });

  it('accumulates partial payments (PARTIALLY_FUNDED) until the requirement is met', async () => {
    const intent = await createIntent(t);
    await pay(t, intent.id, '10');
    const partial = await waitForIntent(t, intent.id, (i) => i.status === 'PARTIALLY_FUNDED');
    expect(partial.received_amount).toBe('10.0000000');
    expect(partial.funding_instructions.amount).toBe('15.0000000');
    await pay(t, intent.id, '15', 'USDC', { memo: 'second half' });
    await waitForIntent(t, intent.id, (i) => i.status === 'CREDITED');
    expect(await history(t, intent.id)).toEqual(['CREATED', 'AWAITING_PAYMENT', 'PARTIALLY_FUNDED', 'PAYMENT_DETECTED', 'PAYMENT_CONFIRMED', 'SETTLING', 'SETTLED', 'CREDITED']);
    const list = await payments(intent.id);
    expect(list.map((p) => p.status)).toEqual(['CONFIRMED', 'CONFIRMED']);
    expect(list[0].memo).toEqual({ type: 'text', value: 'second half' });
  });

  it('lets an overpayment proceed and keeps the surplus refundable (OVERPAYMENT)', async () => {
    const intent = await createIntent(t);
    await pay(t, intent.id, '30');
    const done = await waitForIntent(t, intent.id, (i) => i.status === 'CREDITED');
    expect(done.settlement.destination.amount).toBe('25.0000000');
    expect(done.payment.refundable_amount).toBe('5.0000000');
  });

  it('records a wrong asset (code AND issuer) as UNAPPLIED WRONG_ASSET, never applied', async () => {
    const intent = await createIntent(t);
    await pay(t, intent.id, '25', 'FAKE');
    await pay(t, intent.id, '3', 'XLM');
    const list = await waitFor(() => payments(intent.id), (l) => l.length === 2);
    for (const p of list) expect(p).toMatchObject({ status: 'UNAPPLIED', failure: { code: 'WRONG_ASSET' } });
    expect(list.find((p) => p.asset === 'USDC').stellar_asset).not.toBe(`USDC:${SANDBOX_ASSETS.USDC.issuer}`);
    expect(list.map((p) => p.refundable_amount).sort()).toEqual(['25.0000000', '3.0000000']);
    expect((await t.request('GET', `/v1/funding-intents/${intent.id}`, { key })).body).toMatchObject({ status: 'AWAITING_PAYMENT', received_amount: '0.0000000' });
  });

  it('records a second full payment in the same transaction as DUPLICATE_PAYMENT', async () => {
    const intent = await createIntent(t);
    const payer = await wallet();
    const op = () => Operation.payment({ destination: intent.deposit_account.address, asset: USDC, amount: '25' });
    await submit(payer, [op(), op()]);
    await waitForIntent(t, intent.id, (i) => i.status === 'CREDITED');
    const list = await payments(intent.id);
    expect(list.map((p) => p.failure?.code ?? p.status).sort()).toEqual(['CONFIRMED', 'DUPLICATE_PAYMENT']);
    expect((await t.request('GET', `/v1/funding-intents/${intent.id}`, { key })).body.received_amount).toBe('25.0000000');
  });

  it('records a payment after CREDITED or EXPIRED as EXPIRED_INTENT', async () => {
    const credited = await createIntent(t);
    await pay(t, credited.id, '25');
    await waitForIntent(t, credited.id, (i) => i.status === 'CREDITED');
    await pay(t, credited.id, '1');
    // an intent that received something keeps its deposit account past EXPIRED (its money is
    // refundable); one that ends unpaid has its account retired at once, so a late payment fails
    // on the payer's side instead (test/pipeline/retire.test.ts)
    const expired = await createIntent(t);
    await pay(t, expired.id, '10');
    await waitForIntent(t, expired.id, (i) => i.status === 'PARTIALLY_FUNDED');
    expect((await t.request('POST', `/v1/test_helpers/funding-intents/${expired.id}/expire`, { key })).body.status).toBe('EXPIRED');
    await pay(t, expired.id, '25');
    for (const id of [credited.id, expired.id]) {
      const list = await waitFor(() => payments(id), (l) => l.some((p) => p.failure?.code === 'EXPIRED_INTENT'));
      expect(list[0]).toMatchObject({ status: 'UNAPPLIED', failure: { code: 'EXPIRED_INTENT' } });
    }
    expect((await t.request('GET', `/v1/funding-intents/${expired.id}`, { key })).body.status).toBe('EXPIRED');
  });

  it('credits what a path payment RECEIVED, never its source amount', async () => {
    const intent = await createIntent(t, { amount: '5.00' });
    const payer = await wallet('0', '1000');
    const result = await submit(payer, [Operation.pathPaymentStrictReceive({
      sendAsset: Asset.native(), sendMax: '100', destination: intent.deposit_account.address, destAsset: USDC, destAmount: '5', path: [],
    }) as never]);
    expect(result.successful).toBe(true);
    const done = await waitForIntent(t, intent.id, (i) => i.status === 'CREDITED');
    expect(done.received_amount).toBe('5.0000000');
    expect(done.payment.amount).toBe('5.0000000');
  });

  it('ignores failed transactions', async () => {
    const intent = await createIntent(t);
    const payer = await wallet('1');
    await expect(submit(payer, [Operation.payment({ destination: intent.deposit_account.address, asset: USDC, amount: '25' })])).rejects.toThrow();
    // the follower reads every closed ledger since its cursor: the failed transaction is among them
    await t.server.services.pipeline.pipeline.follower!.run();
    expect(await payments(intent.id)).toEqual([]);
  });

  it('never applies a payment twice (a replay, a follower reading the ledgers again from before the payment)', async () => {
    const intent = await createIntent(t);
    const paid = await pay(t, intent.id, '10');
    await waitForIntent(t, intent.id, (i) => i.status === 'PARTIALLY_FUNDED');
    const { observer, stellar } = t.server.services.pipeline.pipeline;
    const records = await chainAt(`${t.url}/sandbox/horizon`)(intent.deposit_account.address);
    for (const record of records) await observer!.handle(intent.deposit_account.address, record);
    // (not before the network's oldest ledger: a follower stops there, it never skips one)
    await run(t.server.sql, 'UPDATE network_cursors SET ledger = ?', paid.ledger - 3);
    await t.server.services.pipeline.pipeline.follower!.run();
    expect(await payments(intent.id)).toHaveLength(1);
    expect((await t.request('GET', `/v1/funding-intents/${intent.id}`, { key })).body.received_amount).toBe('10.0000000');
  });
});

describe('expiry and cancel', () => {
  it('expires an open intent: EXPIRED with payment.failed and invoice.overdue', async () => {
    const intent = await createIntent(t);
    await pay(t, intent.id, '5');
    await waitForIntent(t, intent.id, (i) => i.status === 'PARTIALLY_FUNDED');
    const res = await t.request('POST', `/v1/test_helpers/funding-intents/${intent.id}/expire`, { key });
    expect(res.body.status).toBe('EXPIRED');
    expect((await eventTypes(t, intent.id)).slice(-2)).toEqual(['payment.failed', 'invoice.overdue']);
    expect((await t.request('POST', `/v1/test_helpers/funding-intents/${intent.id}/expire`, { key })).status).toBe(409);
  });

  it('the expiry worker expires intents past expires_at', async () => {
    const intent = await createIntent(t);
    (await run(t.server.sql, 'UPDATE funding_intents SET expires_at = ? WHERE id = ?', new Date(Date.now() - 1000).toISOString(), intent.id));
    await waitForIntent(t, intent.id, (i) => i.status === 'EXPIRED');
  });

  it('cancels only while nothing was received', async () => {
    const intent = await createIntent(t);
    await pay(t, intent.id, '1');
    await waitForIntent(t, intent.id, (i) => i.status === 'PARTIALLY_FUNDED');
    const res = await t.request('POST', `/v1/funding-intents/${intent.id}/cancel`, { key });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('CONFLICT');
  });
});

describe('test helpers', () => {
  it('refuse live keys (403) and bad input (never a 500)', async () => {
    const intent = await createIntent(t);
    const live = await t.request('POST', `/v1/test_helpers/funding-intents/${intent.id}/payments`, { key: KEYS.alphaSecretLive, body: { amount: '1', asset: 'USDC' } });
    expect(live.status).toBe(403);
    const badAsset = await t.request('POST', `/v1/test_helpers/funding-intents/${intent.id}/payments`, { key, body: { amount: '1', asset: 'DOGE' } });
    expect(badAsset.body.error.code).toBe('UNSUPPORTED_ASSET');
    const badAmount = await t.request('POST', `/v1/test_helpers/funding-intents/${intent.id}/payments`, { key, body: { amount: '1.123456789', asset: 'USDC' } });
    expect(badAmount.body.error.code).toBe('INVALID_AMOUNT');
    const missing = await t.request('POST', '/v1/test_helpers/funding-intents/fi_nope/payments', { key, body: { amount: '1', asset: 'USDC' } });
    expect(missing.status).toBe(404);
  });
});

describe('settlement', () => {
  it('fail_settlement: intent FAILED, settlement FAILED, payout.failed, SETTLEMENT_FAILED refund returns everything', async () => {
    const intent = await createIntent(t);
    expect((await t.request('POST', `/v1/test_helpers/funding-intents/${intent.id}/fail_settlement`, { key })).status).toBe(200);
    await pay(t, intent.id, '25');
    const failed = await waitForIntent(t, intent.id, (i) => i.status === 'FAILED');
    expect(failed.settlement).toMatchObject({ status: 'FAILED', failure: { code: 'op_underfunded' } });
    expect(failed.failure.code).toBe('SETTLEMENT_FAILED');
    expect(await eventTypes(t, intent.id)).toContain('payout.failed');
    expect(failed.payment.refundable_amount).toBe('25.0000000');
    const refund = await t.request('POST', `/v1/funding-intents/${intent.id}/payments/${failed.payment.id}/refunds`, { key, body: { reason: 'SETTLEMENT_FAILED' } });
    expect(refund.status).toBe(201);
    expect((await t.request('GET', `/v1/funding-intents/${intent.id}`, { key })).body.status).toMatch(/REFUND_PENDING|REFUNDED/);
    await waitForIntent(t, intent.id, (i) => i.status === 'REFUNDED');
    expect((await history(t, intent.id)).slice(-3)).toEqual(['FAILED', 'REFUND_PENDING', 'REFUNDED']);
  });

  it('lists and retrieves settlements, with protocol evidence', async () => {
    const intent = await createIntent(t);
    await pay(t, intent.id, '25');
    const done = await waitForIntent(t, intent.id, (i) => i.status === 'CREDITED');
    const list = await t.request('GET', `/v1/settlements?funding_intent_id=${intent.id}`, { key });
    expect(list.body.data).toHaveLength(1);
    const one = await t.request('GET', `/v1/settlements/${done.settlement.id}`, { key });
    expect(one.body.protocol).toMatchObject({ create_transaction_hash: done.payment.transaction_hash, confirm_transaction_hash: one.body.transfer_transaction_hash });
    expect((await t.request('GET', `/v1/settlements/${done.settlement.id}`, { key: KEYS.betaSecretTest })).status).toBe(404);
    const merchant = await horizon.loadAccount(done.destination.address);
    expect(merchant.balances.some((b: any) => b.asset_code === 'USDC' && Number(b.balance) >= 25)).toBe(true);
  });
});

describe('payments endpoints', () => {
  it('list with filters, retrieve, per intent; other applications see 404', async () => {
    const intent = await createIntent(t);
    await pay(t, intent.id, '2');
    // CONFIRMED: a DETECTED payment may move on between two requests
    const [p] = await waitFor(() => payments(intent.id), (l) => l.length === 1 && l[0].status === 'CONFIRMED');
    const all = await t.request('GET', `/v1/payments?funding_intent_id=${intent.id}&status=${p.status}`, { key });
    expect(all.body.data.map((x: any) => x.id)).toEqual([p.id]);
    expect((await t.request('GET', `/v1/payments/${p.id}`, { key })).body.operation_id).toBe(p.operation_id);
    expect((await t.request('GET', `/v1/payments/${p.id}`, { key: KEYS.betaSecretTest })).status).toBe(404);
    expect((await t.request('GET', '/v1/payments?status=NOPE', { key })).status).toBe(400);
  });

  it('keeps deposit and treasury secrets encrypted at rest', async () => {
    const intent = await createIntent(t);
    const row = (await rows(t.server.sql, 'SELECT secret_encrypted FROM deposit_accounts WHERE address = ?', intent.deposit_account.address))[0] as { secret_encrypted: string };
    expect(row.secret_encrypted).not.toMatch(/^S[A-Z2-7]{55}$/);
    const keypair = (await t.server.services.pipeline.pipeline.depositKeys.forIntent(intent.id)).keypair;
    expect(keypair.publicKey()).toBe(intent.deposit_account.address);
    const treasury = (await rows(t.server.sql, "SELECT secret_encrypted FROM stellar_keys WHERE role = 'treasury'"))[0] as { secret_encrypted: string };
    expect(treasury.secret_encrypted).not.toMatch(/^S[A-Z2-7]{55}$/);
    const onChain = await horizon.loadAccount(intent.deposit_account.address);
    expect(onChain.balances.some((b: any) => b.asset_code === 'USDC')).toBe(true);
    expect(onChain.num_sponsored).toBeGreaterThan(0);
  });
});
