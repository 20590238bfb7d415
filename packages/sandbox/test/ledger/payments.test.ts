import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Asset, Keypair, Memo, Operation } from '@stellar/stellar-sdk';
import type { HorizonPaymentRecord } from '../../src/index.js';
import { buildTx, fundedAccount, startSandbox, submitExpectingFailure, USDC, type Sandbox } from './helpers.js';

let sb: Sandbox;
beforeEach(async () => { sb = await startSandbox(); });
afterEach(async () => { await sb.close(); });

async function pay(from: Keypair, to: string, amount: string, memo?: string) {
  const tx = await buildTx(sb, from, [Operation.payment({ destination: to, asset: Asset.native(), amount })],
    memo ? { memo: Memo.text(memo) } : {});
  return sb.horizon.submitTransaction(tx);
}

async function rawPage(path: string) {
  const res = await fetch(`${sb.url}${path}`);
  expect(res.headers.get('content-type')).toBe('application/hal+json; charset=utf-8');
  return (await res.json()) as { _links: Record<string, unknown>; _embedded: { records: Array<Record<string, unknown>> } };
}

describe('sandbox payments history and stream', () => {
  it('lists payments with join=transactions, Horizon record shapes and cursor paging', async () => {
    const alice = await fundedAccount(sb, '100');
    const deposit = Keypair.random();
    await sb.horizon.submitTransaction(await buildTx(sb, alice, [
      Operation.createAccount({ destination: deposit.publicKey(), startingBalance: '5' }),
    ]));
    for (const n of [1, 2, 3]) await pay(alice, deposit.publicKey(), `${n}`, `memo-${n}`);
    const page1 = await sb.horizon.payments().forAccount(deposit.publicKey()).join('transactions').limit(2).call();
    expect(page1.records.map((r) => r.type)).toEqual(['create_account', 'payment']);
    const raw = await rawPage(`/accounts/${deposit.publicKey()}/payments?join=transactions&limit=2`);
    const first = raw._embedded.records[0]!;
    expect(Object.keys(raw._links)).toEqual(['self', 'next', 'prev']);
    expect(Object.keys(first)).toEqual([
      '_links', 'id', 'paging_token', 'transaction_successful', 'source_account', 'type', 'type_i', 'created_at',
      'transaction_hash', 'transaction', 'starting_balance', 'funder', 'account',
    ]);
    expect(first).toMatchObject({ starting_balance: '5.0000000', funder: alice.publicKey(), account: deposit.publicKey(), type_i: 0 });
    const payment = page1.records[1] as unknown as Record<string, unknown>;
    expect(payment).toMatchObject({ asset_type: 'native', from: alice.publicKey(), to: deposit.publicKey(), amount: '1.0000000' });
    // stellar-sdk moves the joined transaction to transaction_attr.
    expect(payment.transaction_attr).toMatchObject({ memo: 'memo-1', memo_type: 'text', successful: true });
    const page2 = await page1.next();
    expect(page2.records.map((r) => (r as unknown as { amount: string }).amount)).toEqual(['2.0000000', '3.0000000']);
    expect((page2.records[1] as unknown as { transaction_attr: { memo: string } }).transaction_attr.memo).toBe('memo-3');
    const desc = await sb.horizon.payments().forAccount(deposit.publicKey()).order('desc').limit(1).call();
    expect((desc.records[0] as unknown as { amount: string }).amount).toBe('3.0000000');
    expect(BigInt(page2.records[0]!.paging_token)).toBeGreaterThan(BigInt(page1.records[1]!.paging_token));
  });

  it('shows failed payments only with include_failed=true', async () => {
    const alice = await fundedAccount(sb, '10');
    const bob = await fundedAccount(sb, '10');
    await submitExpectingFailure(sb, await buildTx(sb, alice, [
      Operation.payment({ destination: bob.publicKey(), asset: USDC, amount: '1' }),
    ]));
    const plain = await sb.horizon.payments().forAccount(bob.publicKey()).call();
    expect(plain.records).toHaveLength(0);
    const all = await sb.horizon.payments().forAccount(bob.publicKey()).includeFailed(true).call();
    expect(all.records).toHaveLength(1);
    expect(all.records[0]).toMatchObject({ transaction_successful: false, asset_code: 'USDC' });
    const tx = await sb.horizon.transactions().transaction(all.records[0]!.transaction_hash).call();
    expect(tx.successful).toBe(false);
  });

  it('records path payments like Horizon', async () => {
    const payer = await fundedAccount(sb, '1000');
    const shop = await fundedAccount(sb, '10');
    await sb.horizon.submitTransaction(await buildTx(sb, shop, [Operation.changeTrust({ asset: USDC })]));
    await sb.horizon.submitTransaction(await buildTx(sb, payer, [Operation.pathPaymentStrictReceive({
      sendAsset: Asset.native(), sendMax: '200', destination: shop.publicKey(), destAsset: USDC, destAmount: '10', path: [],
    })]));
    const page = await sb.horizon.payments().forAccount(shop.publicKey()).call();
    const record = (await rawPage(`/accounts/${shop.publicKey()}/payments`))._embedded.records[0]!;
    expect(page.records).toHaveLength(1);
    expect(Object.keys(record).slice(9)).toEqual([
      'asset_type', 'asset_code', 'asset_issuer', 'from', 'to', 'amount', 'path', 'source_amount', 'source_max', 'source_asset_type',
    ]);
    expect(record).toMatchObject({ type: 'path_payment_strict_receive', type_i: 2, amount: '10.0000000', source_amount: '100.0000000', source_max: '200.0000000' });
  });

  it('streams payments over SSE, including one submitted after the stream opened', async () => {
    const alice = await fundedAccount(sb, '100');
    const shop = await fundedAccount(sb, '10');
    await pay(alice, shop.publicKey(), '1');
    const got: string[] = [];
    const done = new Promise<void>((resolve, reject) => {
      const close = sb.horizon.payments().forAccount(shop.publicKey()).cursor('0').stream({
        onmessage: (r) => {
          got.push((r as unknown as { amount: string }).amount);
          if (got.length === 2) { close(); resolve(); }
        },
        onerror: (e) => reject(e),
      });
    });
    await new Promise((r) => setTimeout(r, 300));
    await pay(alice, shop.publicKey(), '2', 'after-open');
    await done;
    expect(got).toEqual(['1.0000000', '2.0000000']);
  });

  it('frames the SSE stream like Horizon and resumes from Last-Event-ID / cursor=now', async () => {
    const alice = await fundedAccount(sb, '100');
    const shop = await fundedAccount(sb, '10');
    const first = await pay(alice, shop.publicKey(), '1');
    const ctrl = new AbortController();
    const res = await fetch(`${sb.url}/accounts/${shop.publicKey()}/payments?cursor=now`, {
      headers: { Accept: 'text/event-stream' }, signal: ctrl.signal,
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = res.body!.getReader();
    const read = async () => new TextDecoder().decode((await reader.read()).value);
    expect(await read()).toBe('retry: 1000\nevent: open\ndata: "hello"\n\n');
    await pay(alice, shop.publicKey(), '2');
    const event = await read();
    expect(event).toMatch(/^id: \d+\ndata: \{.*"amount":"2\.0000000".*\}\n\n$/);
    ctrl.abort();
    const page = await sb.horizon.payments().forAccount(shop.publicKey()).call();
    const resumed = await fetch(`${sb.url}/accounts/${shop.publicKey()}/payments`, {
      headers: { Accept: 'text/event-stream', 'Last-Event-ID': page.records[0]!.paging_token },
    });
    const r2 = resumed.body!.getReader();
    let text = '';
    while (!text.includes('"amount":"2.0000000"')) text += new TextDecoder().decode((await r2.read()).value);
    expect(text).not.toContain('"amount":"1.0000000"');
    await r2.cancel();
    expect(first.successful).toBe(true);
  });
});
