/**
 * The sandbox's test controls (sandbox_* JSON-RPC methods, src/rpc/controls.ts) over HTTP, as a
 * test of another package calls them: raw JSON-RPC POSTs to a started sandbox, what they change
 * read back through stellar-rpc's methods and Horizon, and every bad parameter answered -32602.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Asset, BASE_FEE, Keypair, Operation, rpc, TransactionBuilder } from '@stellar/stellar-sdk';
import { SANDBOX_ASSETS, startStandaloneSandbox, type StandaloneSandbox } from '../../src/index.js';

const USDC = `USDC:${SANDBOX_ASSETS.USDC.issuer}`;
const INVALID_PARAMS = -32602;
const METHOD_NOT_FOUND = -32601;

async function call(net: StandaloneSandbox, method: string, params?: unknown): Promise<{ result?: any; error?: { code: number; message: string } }> {
  const res = await fetch(net.rpcUrl, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params === undefined ? {} : { params }) }),
  });
  expect(res.status).toBe(200);
  return res.json() as Promise<any>;
}

async function ok(net: StandaloneSandbox, method: string, params?: unknown): Promise<any> {
  const reply = await call(net, method, params);
  expect(reply.error, JSON.stringify(reply.error)).toBeUndefined();
  return reply.result;
}

const latest = async (net: StandaloneSandbox) => (await ok(net, 'getLatestLedger')).sequence as number;

/** What receiving 1 USDC costs in XLM through the book, by Horizon's strict-receive paths (null: no path). */
async function xlmForOneUsdc(net: StandaloneSandbox): Promise<string | null> {
  const q = `source_assets=native&destination_asset_type=credit_alphanum4&destination_asset_code=USDC&destination_asset_issuer=${SANDBOX_ASSETS.USDC.issuer}&destination_amount=1`;
  const body = await (await fetch(`${net.url}/paths/strict-receive?${q}`)).json() as any;
  return body._embedded.records[0]?.source_amount ?? null;
}

describe('on an instant sandbox', () => {
  let net: StandaloneSandbox;
  beforeAll(async () => { net = await startStandaloneSandbox({ dbPath: ':memory:', port: 0 }); });
  afterAll(async () => { await net?.close(); });

  it('sandbox_closeLedger closes an empty ledger now and answers its sequence, which getLatestLedger then reports', async () => {
    const before = await latest(net);
    const { sequence } = await ok(net, 'sandbox_closeLedger');
    expect(sequence).toBe(before + 1);
    expect(await latest(net)).toBe(sequence);
    expect((await ok(net, 'sandbox_closeLedger', {})).sequence).toBe(sequence + 1);
  });

  it('sandbox_setOfferPrice reprices a book, which paths then cross at that price; sandbox_getOffers reads it', async () => {
    expect(await xlmForOneUsdc(net)).toBe('10.0000000');
    const { offers } = await ok(net, 'sandbox_setOfferPrice', { selling: 'USDC', buying: 'XLM', price: { n: 11, d: 1 } });
    expect(offers.length).toBeGreaterThan(0);
    expect(offers.every((o: any) => o.selling === USDC && o.buying === 'native' && o.price.n === 11 && o.price.d === 1)).toBe(true);
    expect((await ok(net, 'sandbox_getOffers', { selling: USDC, buying: 'native' })).offers).toEqual(offers);
    expect(await xlmForOneUsdc(net)).toBe('11.0000000');
    await ok(net, 'sandbox_setOfferPrice', { selling: 'USDC', buying: 'XLM', price: { n: 10, d: 1 } });
    expect(await xlmForOneUsdc(net)).toBe('10.0000000');
  });

  it('sandbox_removeOffers empties a book (no path crosses it) and sandbox_addOffers puts what it answered back', async () => {
    const seller = async (id: string) => (await (await fetch(`${net.url}/accounts/${id}`)).json() as any).subentry_count as number;
    const before = (await ok(net, 'sandbox_getOffers', { selling: 'USDC', buying: 'XLM' })).offers;
    const subentries = await seller(before[0].seller);
    const { offers: removed } = await ok(net, 'sandbox_removeOffers', { selling: 'USDC', buying: 'XLM' });
    expect(removed).toEqual(before);
    expect((await ok(net, 'sandbox_getOffers', { selling: 'USDC', buying: 'XLM' })).offers).toEqual([]);
    expect(await xlmForOneUsdc(net)).toBeNull();
    // offers are subentries of their seller, as on a real network
    expect(await seller(before[0].seller)).toBe(subentries - removed.length);

    const { offers: added } = await ok(net, 'sandbox_addOffers', { offers: removed });
    expect(added.map(({ id: _, ...o }: any) => o)).toEqual(removed.map(({ id: _, ...o }: any) => o));
    expect(await xlmForOneUsdc(net)).toBe('10.0000000');
    expect(await seller(before[0].seller)).toBe(subentries);
  });

  it('a sandbox_* method that is not one answers method not found', async () => {
    expect((await call(net, 'sandbox_mine')).error!.code).toBe(METHOD_NOT_FOUND);
  });

  describe('bad params answer invalid params (-32602) and change nothing', () => {
    const someone = Keypair.random().publicKey();
    const offer = { seller: SANDBOX_ASSETS.USDC.issuer, selling: 'USDC', buying: 'XLM', amount: '10000000', price: { n: 10, d: 1 } };
    it.each<[string, string, unknown]>([
      ['params not an object', 'sandbox_getOffers', ['USDC', 'XLM']],
      ['no selling', 'sandbox_getOffers', { buying: 'USDC' }],
      ['an asset that is none', 'sandbox_getOffers', { selling: 'USDC:nobody', buying: 'XLM' }],
      ['a book of one asset', 'sandbox_getOffers', { selling: 'XLM', buying: 'native' }],
      ['no price', 'sandbox_setOfferPrice', { selling: 'USDC', buying: 'XLM' }],
      ['a zero price', 'sandbox_setOfferPrice', { selling: 'USDC', buying: 'XLM', price: { n: 0, d: 1 } }],
      ['a fractional price', 'sandbox_setOfferPrice', { selling: 'USDC', buying: 'XLM', price: { n: 10.5, d: 1 } }],
      ['a price past 32 bits', 'sandbox_setOfferPrice', { selling: 'USDC', buying: 'XLM', price: { n: 2 ** 31, d: 1 } }],
      ['a book with no offer', 'sandbox_setOfferPrice', { selling: 'EURC', buying: `USDC:${someone}`, price: { n: 1, d: 1 } }],
      ['removing from a book with no offer', 'sandbox_removeOffers', { selling: `USDC:${someone}`, buying: 'XLM' }],
      ['no offers', 'sandbox_addOffers', {}],
      ['an empty list', 'sandbox_addOffers', { offers: [] }],
      ['a seller that is no address', 'sandbox_addOffers', { offers: [{ ...offer, seller: 'G123' }] }],
      ['a seller with no account', 'sandbox_addOffers', { offers: [{ ...offer, seller: someone }] }],
      ['an amount of zero', 'sandbox_addOffers', { offers: [{ ...offer, amount: '0' }] }],
      ['an amount as a number', 'sandbox_addOffers', { offers: [{ ...offer, amount: 10000000 }] }],
      ['an amount in units', 'sandbox_addOffers', { offers: [{ ...offer, amount: '1.5' }] }],
      ['an amount past int64', 'sandbox_addOffers', { offers: [{ ...offer, amount: (2n ** 63n).toString() }] }],
      ['a second offer that is bad', 'sandbox_addOffers', { offers: [offer, { ...offer, seller: someone }] }],
    ])('%s (%s)', async (_what, method, params) => {
      const ledger = await latest(net);
      const offers = (await ok(net, 'sandbox_getOffers', { selling: 'USDC', buying: 'XLM' })).offers;
      const reply = await call(net, method, params);
      expect(reply.result).toBeUndefined();
      expect(reply.error!.code, reply.error!.message).toBe(INVALID_PARAMS);
      expect(reply.error!.message).toMatch(/^invalid parameters: /);
      // nothing written: no ledger closed for it, the book as it was
      expect(await latest(net)).toBe(ledger);
      expect((await ok(net, 'sandbox_getOffers', { selling: 'USDC', buying: 'XLM' })).offers).toEqual(offers);
    });
  });
});

describe('on a sandbox whose ledgers close every hour', () => {
  let net: StandaloneSandbox;
  beforeAll(async () => { net = await startStandaloneSandbox({ dbPath: ':memory:', port: 0, ledgerSeconds: 3600 }); });
  afterAll(async () => { await net?.close(); });

  it('sandbox_closeLedger closes the ledger now, with the transactions waiting for it', async () => {
    const alice = Keypair.random();
    // the friendbot waits for its grant's close
    const granted = fetch(`${net.url}/friendbot?addr=${alice.publicKey()}`);
    await expect.poll(async () => (await ok(net, 'sandbox_closeLedger'), (await fetch(`${net.url}/accounts/${alice.publicKey()}`)).status)).toBe(200);
    expect((await granted).status).toBe(200);

    const server = new rpc.Server(net.rpcUrl, { allowHttp: true });
    const tx = new TransactionBuilder(await server.getAccount(alice.publicKey()), { fee: BASE_FEE, networkPassphrase: net.passphrase })
      .addOperation(Operation.payment({ destination: alice.publicKey(), asset: Asset.native(), amount: '1' })).setTimeout(0).build();
    tx.sign(alice);
    expect((await ok(net, 'sandbox_getPending')).count).toBe(0);
    expect((await server.sendTransaction(tx)).status).toBe('PENDING');
    expect((await ok(net, 'sandbox_getPending')).count).toBe(1);
    const before = await latest(net);
    expect((await server.getTransaction(Buffer.from(tx.hash()).toString('hex'))).status).toBe('NOT_FOUND');
    const { sequence } = await ok(net, 'sandbox_closeLedger');
    expect(sequence).toBe(before + 1);
    const found = await server.getTransaction(Buffer.from(tx.hash()).toString('hex'));
    expect(found.status).toBe('SUCCESS');
    expect((found as rpc.Api.GetSuccessfulTransactionResponse).ledger).toBe(sequence);
    expect((await ok(net, 'sandbox_getPending')).count).toBe(0);
  });
});
