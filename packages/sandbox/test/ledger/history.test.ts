/**
 * The sandbox Horizon's history through the real @stellar/stellar-sdk, the way a wallet or an
 * explorer reads it: transactions, operations, payments and effects per account, ledger,
 * transaction and operation; ledgers; accounts by asset, signer and sponsor; streams; and
 * Horizon's 400 for malformed ids and parameters.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Asset, hash, Horizon, Keypair, Operation, xdr } from '@stellar/stellar-sdk';
import { buildTx, fundedAccount, startSandbox, USDC, type Sandbox } from './helpers.js';

let sb: Sandbox;
beforeEach(async () => { sb = await startSandbox(); });
afterEach(async () => { await sb.close(); });

/** alice creates bob, bob trusts USDC, alice pays him 25 USDC: three transactions. */
async function story() {
  const alice = await fundedAccount(sb, '100', { asset: USDC, amount: '100' });
  const bob = Keypair.random();
  const created = await sb.horizon.submitTransaction(
    await buildTx(sb, alice, [Operation.createAccount({ destination: bob.publicKey(), startingBalance: '10' })]));
  const trusted = await sb.horizon.submitTransaction(await buildTx(sb, bob, [Operation.changeTrust({ asset: USDC })]));
  const paid = await sb.horizon.submitTransaction(
    await buildTx(sb, alice, [Operation.payment({ destination: bob.publicKey(), asset: USDC, amount: '25' })]));
  return { alice, bob, created, trusted, paid };
}

async function getJson(path: string) {
  const res = await fetch(`${sb.url}${path}`);
  return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as Record<string, any> };
}

describe('sandbox Horizon history', () => {
  it('lists an account\'s transactions, operations, payments and effects in Horizon\'s shapes', async () => {
    const { alice, bob, created, trusted, paid } = await story();
    const txs = await sb.horizon.transactions().forAccount(bob.publicKey()).call();
    expect(txs.records.map((t) => t.hash)).toEqual([created.hash, trusted.hash, paid.hash]);
    const newest = await sb.horizon.transactions().forAccount(bob.publicKey()).order('desc').limit(1).call();
    expect(newest.records.map((t) => t.hash)).toEqual([paid.hash]);
    expect((await newest.next()).records.map((t) => t.hash)).toEqual([trusted.hash]);

    const ops = await sb.horizon.operations().forAccount(bob.publicKey()).call();
    expect(ops.records.map((o) => o.type)).toEqual(['create_account', 'change_trust', 'payment']);
    expect(ops.records[1]).toMatchObject({
      type_i: 6, asset_type: 'credit_alphanum4', asset_code: 'USDC', asset_issuer: USDC.getIssuer(),
      limit: '922337203685.4775807', trustee: USDC.getIssuer(), trustor: bob.publicKey(), transaction_hash: trusted.hash,
    });
    const payments = await sb.horizon.payments().forAccount(bob.publicKey()).call();
    expect(payments.records.map((o) => o.type)).toEqual(['create_account', 'payment']);

    const effects = await sb.horizon.effects().forAccount(bob.publicKey()).call();
    expect(effects.records.map((e) => e.type)).toEqual(['account_created', 'signer_created', 'trustline_created', 'account_credited']);
    expect(effects.records[3]).toMatchObject({ account: bob.publicKey(), type_i: 2, asset_code: 'USDC', amount: '25.0000000' });
    const aliceEffects = await sb.horizon.effects().forAccount(alice.publicKey()).call();
    expect(aliceEffects.records.map((e) => [e.type, (e as unknown as { amount: string }).amount])).toEqual([
      ['account_debited', '10.0000000'], ['account_debited', '25.0000000'],
    ]);
    const [first] = effects.records;
    expect(first!.id).toMatch(/^\d{19}-\d{10}$/);
    expect(first!.paging_token).toBe(`${ops.records[0]!.id}-1`);
  });

  it('serves an operation, its effects and its transaction\'s operations; the links resolve', async () => {
    const { bob, trusted } = await story();
    const [op] = (await sb.horizon.operations().forTransaction(trusted.hash).call()).records;
    const one = await sb.horizon.operations().operation(op!.id).call();
    expect(one).toMatchObject({ id: op!.id, type: 'change_trust', source_account: bob.publicKey() });
    const effects = await one.effects();
    expect(effects.records.map((e) => e.type)).toEqual(['trustline_created']);
    const tx = await one.transaction();
    expect(tx.hash).toBe(trusted.hash);
    const fromTx = await sb.horizon.effects().forTransaction(trusted.hash).call();
    expect(fromTx.records.map((e) => e.id)).toEqual(effects.records.map((e) => e.id));
    const opsOfTx = await tx.operations();
    expect(opsOfTx.records.map((o) => o.id)).toEqual([op!.id]);
  });

  it('closes ledgers with a hash chain and a header that decodes', async () => {
    const { paid } = await story();
    const ledger = await sb.horizon.ledgers().ledger(paid.ledger).call() as unknown as Horizon.ServerApi.LedgerRecord;
    const header = xdr.LedgerHeader.fromXdr(ledger.header_xdr, 'base64');
    expect(header.ledgerSeq).toBe(paid.ledger);
    expect(Buffer.from(hash(header.toXdr())).toString('hex')).toBe(ledger.hash);
    const previous = await sb.horizon.ledgers().ledger(paid.ledger - 1).call() as unknown as Horizon.ServerApi.LedgerRecord;
    expect(ledger.prev_hash).toBe(previous.hash);
    expect(ledger).toMatchObject({ sequence: paid.ledger, successful_transaction_count: 1, failed_transaction_count: 0,
      operation_count: 1, base_fee_in_stroops: 100, base_reserve_in_stroops: 5000000 });
    const inLedger = await sb.horizon.transactions().forLedger(paid.ledger).call();
    expect(inLedger.records.map((t) => t.hash)).toEqual([paid.hash]);
    const latest = await sb.horizon.ledgers().order('desc').limit(1).call();
    expect(latest.records[0]!.sequence).toBe(paid.ledger);
    const root = await sb.horizon.root();
    expect(root.history_latest_ledger).toBe(paid.ledger);
  });

  it('lists every transaction, operation, payment and effect of the network, newest first on request', async () => {
    const { paid } = await story();
    const txs = await sb.horizon.transactions().order('desc').limit(1).call();
    expect(txs.records[0]!.hash).toBe(paid.hash);
    const payments = await sb.horizon.payments().order('desc').limit(1).call();
    expect(payments.records[0]!.transaction_hash).toBe(paid.hash);
    const ops = await sb.horizon.operations().order('desc').limit(3).call();
    expect(ops.records.map((o) => o.type)).toEqual(['payment', 'change_trust', 'create_account']);
    const effects = await sb.horizon.effects().order('desc').limit(2).call();
    expect(effects.records.map((e) => e.type)).toEqual(['account_debited', 'account_credited']);
  });

  it('finds accounts by asset, signer and sponsor', async () => {
    const { alice, bob } = await story();
    const holders = await sb.horizon.accounts().forAsset(USDC).limit(200).call();
    const ids = holders.records.map((a) => a.id);
    expect(ids).toEqual(expect.arrayContaining([alice.publicKey(), bob.publicKey(), sb.keys.treasury.publicKey]));
    expect(ids).toEqual([...ids].sort());
    const bySigner = await sb.horizon.accounts().forSigner(bob.publicKey()).call();
    expect(bySigner.records.map((a) => a.id)).toEqual([bob.publicKey()]);
    const sponsored = Keypair.random();
    const sponsor = sb.treasury;
    await sb.horizon.submitTransaction(await buildTx(sb, sponsor, [
      Operation.beginSponsoringFutureReserves({ sponsoredId: sponsored.publicKey() }),
      Operation.createAccount({ destination: sponsored.publicKey(), startingBalance: '0' }),
      Operation.endSponsoringFutureReserves({ source: sponsored.publicKey() }),
    ], { signers: [sponsor, sponsored] }));
    const bySponsor = await sb.horizon.accounts().sponsor(sponsor.publicKey()).call();
    expect(bySponsor.records.map((a) => a.id)).toContain(sponsored.publicKey());
    const effects = await sb.horizon.effects().forAccount(sponsored.publicKey()).call();
    expect(effects.records.map((e) => e.type)).toEqual(['account_created', 'signer_created', 'account_sponsorship_created']);
    const ops = await sb.horizon.operations().forAccount(sponsored.publicKey()).call();
    expect(ops.records.map((o) => o.type)).toEqual(['begin_sponsoring_future_reserves', 'create_account', 'end_sponsoring_future_reserves']);
    expect(ops.records[2]).toMatchObject({ begin_sponsor: sponsor.publicKey() });
  });

  it('streams effects, transactions and ledgers as ledgers close', async () => {
    const alice = await fundedAccount(sb, '100');
    const seen: Record<string, string[]> = { effects: [], transactions: [], ledgers: [] };
    // "now" fixed before the streams connect: one that connects late still replays what it missed
    const now = String(await sb.ledger.nowToken());
    const stops = [
      sb.horizon.effects().forAccount(alice.publicKey()).cursor(now)
        .stream({ onmessage: (e) => { seen.effects!.push((e as unknown as { type: string }).type); } }),
      sb.horizon.transactions().forAccount(alice.publicKey()).cursor(now)
        .stream({ onmessage: (t) => { seen.transactions!.push((t as unknown as { hash: string }).hash); } }),
      sb.horizon.ledgers().cursor(now)
        .stream({ onmessage: (l) => { seen.ledgers!.push(String((l as unknown as { sequence: number }).sequence)); } }),
    ];
    try {
      await new Promise((r) => setTimeout(r, 200));
      const res = await sb.horizon.submitTransaction(await buildTx(sb, alice, [
        Operation.payment({ destination: sb.keys.treasury.publicKey, asset: Asset.native(), amount: '1' })]));
      await expect.poll(() => seen.effects!.length, { timeout: 3000 }).toBe(1);
      await expect.poll(() => seen.transactions, { timeout: 3000 }).toEqual([res.hash]);
      await expect.poll(() => seen.ledgers, { timeout: 3000 }).toEqual([String(res.ledger)]);
      expect(seen.effects).toEqual(['account_debited']);
    } finally {
      for (const stop of stops) stop();
    }
  });

  it('answers Horizon\'s 400 for malformed ids and parameters, and 404 for what does not exist', async () => {
    const bad = await getJson('/accounts/NOTANACCOUNT');
    expect(bad.status).toBe(400);
    expect(bad.type).toContain('application/problem+json');
    expect(bad.body).toMatchObject({ type: 'https://stellar.org/horizon-errors/bad_request',
      extras: { invalid_field: 'account_id', reason: 'Account ID must start with `G` and contain 56 alphanum characters' } });
    expect((await getJson('/accounts/NOTANACCOUNT/payments')).body.extras.invalid_field).toBe('account_id');
    expect((await getJson('/transactions/xyz')).body.extras.invalid_field).toBe('tx_id');
    expect((await getJson('/operations/abc')).body.extras.invalid_field).toBe('id');
    expect((await getJson('/ledgers/abc')).body.extras.invalid_field).toBe('ledger_id');
    expect((await getJson('/payments?limit=500')).body.extras.invalid_field).toBe('limit');
    expect((await getJson('/effects?cursor=abc')).body.extras.invalid_field).toBe('cursor');
    expect((await getJson('/transactions?order=sideways')).body.extras.invalid_field).toBe('order');
    const noFilter = await getJson('/accounts');
    expect(noFilter.status).toBe(400);
    expect(noFilter.body.type).toBe('https://stellar.org/horizon-errors/invalid_accounts_params');
    expect((await getJson('/accounts?asset=native')).body.extras.invalid_field).toBe('asset');
    expect((await getJson(`/operations/${2n ** 40n}`)).status).toBe(404);
    expect((await getJson('/ledgers/999999')).status).toBe(404);
    expect((await getJson(`/accounts/${Keypair.random().publicKey()}`)).status).toBe(404);
  });

  it('advertises at its root only links it serves', async () => {
    const { alice, paid } = await story();
    const root = await getJson('/');
    const values: Record<string, string> = {
      account_id: alice.publicKey(), hash: paid.hash, sequence: String(paid.ledger), id: String(BigInt(paid.paging_token) + 1n),
    };
    for (const [name, link] of Object.entries(root.body._links as Record<string, { href: string }>)) {
      if (name === 'friendbot') continue; // mounted by the server beside this router (see the friendbot tests)
      const path = link.href.replace(sb.url, '').replace(/\{\?[^}]*\}/, '').replace(/\{(\w+)\}/g, (_m, k: string) => values[k]!);
      const query = name === 'accounts' ? `?signer=${alice.publicKey()}` : name.includes('paths')
        ? `?source_assets=native&destination_asset_type=native&destination_amount=1&source_asset_type=native&source_amount=1&destination_assets=native`
        : '';
      const res = await fetch(`${sb.url}${path}${query}`);
      expect({ name, status: res.status }).toEqual({ name, status: 200 });
    }
  });
});
