/**
 * Muxed deposit addresses (DESIGN §11) through the public surface: a `muxed` intent is payable at
 * once at an M… address on a collection account, with no request to the network; a stellar-sdk
 * wallet paying that address gets it CREDITED and settled, its overpayment refunded (to a muxed
 * address as given); money to the collection account that names no known muxed id is recorded
 * and the operator returns it.
 */
import { Account, Keypair, MuxedAccount, Operation, StrKey } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_KEY, SETTLEMENT_ADDRESS, startTestServer, type TestServer } from '../helpers/server.js';
import { USDC, Wallets } from '../over-the-wire/helpers.js';
import { FAST_ENV, key, waitFor } from './helpers.js';
import { signedIn } from '../helpers/accounts.js';

let t: TestServer;
let wallets: Wallets;
beforeAll(async () => {
  // 10,000 creates below: the rate limit and the open-intents cap of a real deployment would refuse them
  t = await startTestServer({ env: FAST_ENV });
  wallets = new Wallets(t.url);
}, 60_000);
afterAll(() => t?.close());

const intentOf = async (id: string) => (await t.request('GET', `/v1/funding-intents/${id}`, { key })).body;
const createMuxed = async (body: Record<string, unknown> = {}) => t.request('POST', '/v1/funding-intents', { key, body: { amount: '25', asset: 'USDC', deposit_type: 'muxed', ...body } });

/** The requests the server made to its Stellar network so far, by method (GET /metrics). */
async function requestsByMethod(server: TestServer): Promise<Record<string, number>> {
  const text = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${OPERATOR_KEY}` } })).text();
  const counts: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const m = /^fundkit_network_requests_total\{method="([^"]+)"\} (\d+)/.exec(line);
    if (m) counts[m[1]!] = Number(m[2]);
  }
  return counts;
}

/**
 * Twice in a row: a scrape's own readiness probe (the tip and the treasury, at most once per few
 * seconds) is counted in the first one, so the second reads a count no probe of its own moved.
 */
async function requestsNow(server: TestServer): Promise<Record<string, number>> {
  await requestsByMethod(server);
  return requestsByMethod(server);
}

async function payer(usdc: string): Promise<Keypair> {
  const keypair = Keypair.random();
  await wallets.fund(keypair, usdc);
  return keypair;
}

describe('deposit_type muxed', () => {
  it('is AWAITING_PAYMENT at once, at an M… address of its own on the collection account', async () => {
    const [a, b] = [await createMuxed(), await createMuxed()];
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ status: 'AWAITING_PAYMENT', funding_instructions: { deposit: { type: 'muxed' } }, deposit_account: { type: 'muxed', status: 'ACTIVE' } });
    const address = a.body.funding_instructions.deposit.address as string;
    expect(StrKey.isValidMed25519PublicKey(address)).toBe(true);
    expect(a.body.deposit_account.address).toBe(address);
    // the collection account holds it: the M… address is that account plus a muxed id
    expect(MuxedAccount.fromAddress(address, '0').baseAccount().accountId()).toBe(a.body.deposit_account.collection_address);
    expect(b.body.deposit_account.collection_address).toBe(a.body.deposit_account.collection_address);
    expect(b.body.funding_instructions.deposit.address).not.toBe(address);
    expect(a.body.funding_instructions.payment_uri).toContain(`destination=${address}`);
    // an account intent is as before
    const plain = await t.request('POST', '/v1/funding-intents', { key, body: { amount: '25', asset: 'USDC' } });
    expect(plain.body).toMatchObject({ funding_instructions: { deposit: { type: 'account' } }, deposit_account: { type: 'account', collection_address: null } });
  });

  it("takes the application's default_deposit_type when the create does not say, read at each create", async () => {
    const session = await signedIn(t, 'muxed-default@example.org');
    const app = await t.request('POST', '/v1/applications', { key: session, body: { name: 'Omnibus shop', settlement_address: SETTLEMENT_ADDRESS } });
    expect(app.body.default_deposit_type).toBe('account');
    const appKey = (await t.request('POST', `/v1/applications/${app.body.id}/keys`, { key: session, body: { type: 'secret', environment: 'test' } })).body.key as string;
    const setDefault = (value: unknown) => t.request('PATCH', `/v1/applications/${app.body.id}`, { key: session, body: { default_deposit_type: value } });
    const create = (body: Record<string, unknown> = {}) => t.request('POST', '/v1/funding-intents', { key: appKey, body: { amount: '5', asset: 'USDC', ...body } });
    expect((await create()).body.funding_instructions.deposit.type).toBe('account');
    const bad = await setDefault('memo');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.error.details)).toContain('default_deposit_type');
    const changed = await setDefault('muxed');
    expect(changed.status).toBe(200);
    expect(changed.body.default_deposit_type).toBe('muxed');
    const next = await create();
    expect(next.body).toMatchObject({ status: 'AWAITING_PAYMENT', funding_instructions: { deposit: { type: 'muxed' } } });
    expect(next.body.funding_instructions.deposit.address).toMatch(/^M/);
    // the request still decides when it says
    expect((await create({ deposit_type: 'account' })).body.funding_instructions.deposit.type).toBe('account');
    expect((await setDefault('account')).body.default_deposit_type).toBe('account');
    expect((await create()).body.funding_instructions.deposit.type).toBe('account');
  });

  it('a bad deposit_type is a 400 naming the field', async () => {
    for (const bad of ['memo', '', 7, null]) {
      const res = await createMuxed({ deposit_type: bad });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR' });
      expect(JSON.stringify(res.body.error.details)).toContain('deposit_type');
    }
  });

  it('paid by a wallet to its M… address: CREDITED, settled, and the overpayment refunded to a muxed address', async () => {
    const created = (await createMuxed()).body;
    const wallet = await payer('100');
    const settledBefore = Number(await wallets.usdc(SETTLEMENT_ADDRESS).catch(() => '0'));
    const hash = await wallets.pay(wallet, created.funding_instructions.deposit.address, '30');
    const credited = await waitFor(() => intentOf(created.id), (i) => i.status === 'CREDITED', 15_000);
    expect(credited.received_amount).toBe('30.0000000');
    expect(credited.payment).toMatchObject({ transaction_hash: hash, payer_address: wallet.publicKey(), amount: '30.0000000', status: 'CONFIRMED', refundable_amount: '5.0000000' });
    expect(credited.settlement).toMatchObject({ status: 'CONFIRMED' });
    // the payment names the M… address the payer paid, not the collection account behind it
    const payment = (await t.request('GET', `/v1/payments/${credited.payment.id}`, { key })).body;
    expect(payment.destination_address).toBe(created.funding_instructions.deposit.address);
    expect(payment.destination_address).toMatch(/^M/);
    // settled on chain out of the collection account
    expect(Number(await wallets.usdc(SETTLEMENT_ADDRESS))).toBeCloseTo(settledBefore + 25, 7);
    // the surplus back to the payer, given as a muxed address of theirs (an exchange's omnibus account does this)
    const muxedPayer = new MuxedAccount(new Account(wallet.publicKey(), '0'), '4242').accountId();
    const asked = await t.request('POST', `/v1/funding-intents/${created.id}/payments/${credited.payment.id}/refunds`, { key, body: { reason: 'OVERPAYMENT', destination_address: muxedPayer } });
    expect(asked.status).toBe(201);
    const refund = await waitFor(async () => (await t.request('GET', `/v1/refunds/${asked.body.id}`, { key })).body, (r) => r.status === 'COMPLETED', 15_000);
    expect(refund).toMatchObject({ amount: '5.0000000', destination: { address: muxedPayer } });
    expect(await wallets.usdc(wallet.publicKey())).toBe('75.0000000');
    // the network shows the refund paid to the muxed address, as Horizon does
    const records = (await (await fetch(`${t.url}/sandbox/horizon/accounts/${wallet.publicKey()}/payments?order=desc&limit=1`)).json())._embedded.records;
    expect(records[0]).toMatchObject({ to: wallet.publicKey(), to_muxed: muxedPayer, to_muxed_id: '4242', amount: '5.0000000' });
  }, 30_000);

  it('money to the collection account without a known muxed id is recorded, and the operator refunds it', async () => {
    const created = (await createMuxed()).body;
    const collection = created.deposit_account.collection_address as string;
    const wallet = await payer('50');
    const unknownId = new MuxedAccount(new Account(collection, '0'), '12345').accountId();
    const plainHash = await wallets.pay(wallet, collection, '3');
    const unknownHash = await wallets.submit(wallet, [Operation.payment({ destination: unknownId, asset: USDC, amount: '4' })]);
    const list = async () => (await t.request('GET', '/v1/platform/unattributed_payments?limit=100', { key: OPERATOR_KEY })).body.data as any[];
    const found = await waitFor(list, (rows) => [plainHash, unknownHash].every((h) => rows.some((r) => r.transaction_hash === h)), 15_000);
    const plain = found.find((r) => r.transaction_hash === plainHash);
    const unknown = found.find((r) => r.transaction_hash === unknownHash);
    expect(plain).toMatchObject({ object: 'unattributed_payment', status: 'RECORDED', amount: '3.0000000', to_muxed_id: null, payer_address: wallet.publicKey(), collection_address: collection });
    expect(unknown).toMatchObject({ status: 'RECORDED', amount: '4.0000000', to_muxed_id: '12345' });
    // no intent took it
    expect((await intentOf(created.id)).received_amount).toBe('0.0000000');
    // application keys cannot see or move it
    expect((await t.request('GET', '/v1/platform/unattributed_payments', { key })).status).toBe(401);
    const refunded = await t.request('POST', `/v1/platform/unattributed_payments/${plain.id}/refund`, { key: OPERATOR_KEY, body: {} });
    expect(refunded.status).toBe(200);
    expect(refunded.body).toMatchObject({ status: 'REFUNDED', refund: { destination_address: wallet.publicKey() } });
    expect(refunded.body.refund.transaction_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await wallets.usdc(wallet.publicKey())).toBe('46.0000000');
    // once only
    expect((await t.request('POST', `/v1/platform/unattributed_payments/${plain.id}/refund`, { key: OPERATOR_KEY, body: {} })).status).toBe(409);
  }, 30_000);

  it('a conversion is refused for a muxed intent; its options offer its own asset only', async () => {
    const created = (await createMuxed()).body;
    const options = await t.request('GET', `/v1/funding_intents/${created.id}/options`, { key });
    expect(options.status).toBe(200);
    expect(options.body.options.map((o: any) => o.source.asset)).toEqual(['USDC']);
  });
});

describe('creates of muxed intents', () => {
  let quiet: TestServer;
  beforeAll(async () => {
    // the ledger follower reads when the sandbox closes a ledger, not on a timer: at rest the server
    // asks the network nothing, so what creates ask is what /metrics shows. 10,000 creates: the rate
    // limit and the open-intents cap of a real deployment would refuse them
    quiet = await startTestServer({ env: { ...FAST_ENV, FUNDKIT_BACKFILL_INTERVAL_MS: '3600000', FUNDKIT_RATE_LIMIT: '100000', FUNDKIT_MAX_OPEN_INTENTS: '100000' } });
  }, 60_000);
  afterAll(() => quiet?.close());

  const CREATES = 10_000;
  it(`${CREATES} muxed creates make no request to the network`, async () => {
    // the server at rest first (its deposit pool and collection accounts made)
    let last = '';
    const before = await waitFor(() => requestsNow(quiet), (n) => { const still = JSON.stringify(n) === last; last = JSON.stringify(n); return still; }, 30_000, 500);
    expect(Object.keys(before).length).toBeGreaterThan(0);
    const ids = new Set<string>();
    for (let i = 0; i < CREATES; i += 50) {
      const batch = await Promise.all(Array.from({ length: 50 }, () => quiet.request('POST', '/v1/funding-intents', { key, body: { amount: '1', asset: 'USDC', deposit_type: 'muxed' } })));
      for (const res of batch) {
        expect(res.status).toBe(201);
        ids.add(res.body.funding_instructions.deposit.address);
      }
    }
    expect(ids.size).toBe(CREATES);
    const after = await requestsNow(quiet);
    // nothing but the one readiness probe a scrape makes when its cache ran out (the tip, the treasury)
    const probes = (after.getLatestLedger ?? 0) - (before.getLatestLedger ?? 0);
    expect(probes).toBeLessThanOrEqual(1);
    expect(after).toEqual({ ...before, getLatestLedger: (before.getLatestLedger ?? 0) + probes, getLedgerEntries: (before.getLedgerEntries ?? 0) + probes });
  }, 600_000);
});
