/**
 * The sandbox's test controls, as anvil's anvil_* / evm_* methods are: JSON-RPC methods beside
 * stellar-rpc's, prefixed `sandbox_`, for what a test needs that no Stellar network offers (close a
 * ledger now, move the market maker's prices, empty a book and fill it again). A real stellar-rpc
 * answers them "method not found" (-32601), so a client that calls them against testnet hears so.
 *
 * Assets are named XLM (or native), USDC, EURC or CODE:ISSUER; an offer is
 * `{ id, seller, selling, buying, amount, price: { n, d } }`: `amount` in stroops of `selling`
 * (a string, as stellar-rpc writes int64), the price n/d units of `buying` per unit of `selling`.
 */
import { StrKey } from '@stellar/stellar-sdk';
import type { SandboxLedger } from '../ledger.js';
import { parseAsset } from '../sandbox-assets.js';
import { assetKey } from '../shared/assets.js';
import type { OfferRow } from '../store.js';
import { invalidParams } from './errors.js';

type Params = Record<string, unknown>;

const INT32_MAX = 2 ** 31 - 1;
const INT64_MAX = 2n ** 63n - 1n;

export interface OfferJson {
  id: number;
  seller: string;
  selling: string;
  buying: string;
  amount: string;
  price: { n: number; d: number };
}

function offerJson(o: OfferRow): OfferJson {
  return { id: o.id, seller: o.seller, selling: o.selling, buying: o.buying, amount: o.amount.toString(), price: { n: Number(o.priceN), d: Number(o.priceD) } };
}

function assetParam(value: unknown, name: string): string {
  const asset = value === undefined ? null : parseAsset(value);
  if (!asset) throw invalidParams(`invalid parameters: ${name} must be XLM, USDC, EURC or CODE:ISSUER, got ${JSON.stringify(value)}`);
  return assetKey(asset);
}

/** A Stellar price: n and d positive 32-bit integers, as the Price of an offer in XDR. */
function priceParam(value: unknown, name: string): { n: bigint; d: bigint } {
  const part = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v > 0 && v <= INT32_MAX;
  const p = value as { n?: unknown; d?: unknown } | null;
  if (typeof p !== 'object' || p === null || !part(p.n) || !part(p.d)) {
    throw invalidParams(`invalid parameters: ${name} must be {"n","d"}, positive 32-bit integers, got ${JSON.stringify(value)}`);
  }
  return { n: BigInt(p.n as number), d: BigInt(p.d as number) };
}

function amountParam(value: unknown, name: string): bigint {
  if (typeof value !== 'string' || !/^[1-9]\d*$/.test(value) || BigInt(value) > INT64_MAX) {
    throw invalidParams(`invalid parameters: ${name} must be a positive number of stroops as a string, got ${JSON.stringify(value)}`);
  }
  return BigInt(value);
}

function book(params: Params): { selling: string; buying: string } {
  const selling = assetParam(params.selling, 'selling');
  const buying = assetParam(params.buying, 'buying');
  if (selling === buying) throw invalidParams('invalid parameters: selling and buying must differ');
  return { selling, buying };
}

async function nonEmptyBook(ledger: SandboxLedger, params: Params): Promise<OfferRow[]> {
  const { selling, buying } = book(params);
  const offers = await ledger.store.bookOffers(selling, buying);
  if (offers.length === 0) throw invalidParams(`invalid parameters: no offer sells ${selling} for ${buying}`);
  return offers;
}

async function moveSubentries(ledger: SandboxLedger, seller: string, by: number, at: number): Promise<void> {
  const account = await ledger.store.getAccount(seller);
  if (account) await ledger.store.putAccount({ ...account, subentries: account.subentries + by, lastModifiedLedger: at });
}

/** sandbox_closeLedger {}: closes a ledger now (with what waits on a clocked ledger, empty on an instant one) → { sequence }. */
export async function closeLedger(ledger: SandboxLedger): Promise<{ sequence: number }> {
  if (ledger.clock) return { sequence: await ledger.closeNow() };
  let sequence = 0;
  await ledger.directWrite((c) => { sequence = c.ledger; });
  return { sequence };
}

/**
 * sandbox_getPending {}: how many admitted transactions wait for the next close of a clocked
 * ledger (0 on an instant one) → { count }. A test waits for its submits to be in before it closes.
 */
export async function getPending(ledger: SandboxLedger): Promise<{ count: number }> {
  return { count: ledger.clock ? await ledger.clock.pendingCount() : 0 };
}

/** sandbox_getOffers { selling, buying } → { offers }, best price first. */
export async function getOffers(ledger: SandboxLedger, params: Params): Promise<{ offers: OfferJson[] }> {
  const { selling, buying } = book(params);
  return { offers: (await ledger.store.bookOffers(selling, buying)).map(offerJson) };
}

/** sandbox_setOfferPrice { selling, buying, price: { n, d } }: every offer of that book at this price → { offers }. */
export async function setOfferPrice(ledger: SandboxLedger, params: Params): Promise<{ offers: OfferJson[] }> {
  const price = priceParam(params.price, 'price');
  let changed: OfferRow[] = [];
  await ledger.directWrite(async (c) => {
    changed = await nonEmptyBook(ledger, params);
    for (const o of changed) await ledger.store.setOfferPrice(o.id, price.n, price.d, c.ledger);
  });
  return { offers: changed.map((o) => offerJson({ ...o, priceN: price.n, priceD: price.d })) };
}

/** sandbox_removeOffers { selling, buying }: empties that book → { offers } (those removed, for sandbox_addOffers). */
export async function removeOffers(ledger: SandboxLedger, params: Params): Promise<{ offers: OfferJson[] }> {
  let removed: OfferRow[] = [];
  await ledger.directWrite(async (c) => {
    removed = await nonEmptyBook(ledger, params);
    for (const o of removed) {
      await ledger.store.deleteOffer(o.id);
      await moveSubentries(ledger, o.seller, -1, c.ledger);
    }
  });
  return { offers: removed.map(offerJson) };
}

/** sandbox_addOffers { offers: [{ seller, selling, buying, amount, price }] } → { offers } (with their new ids). */
export async function addOffers(ledger: SandboxLedger, params: Params): Promise<{ offers: OfferJson[] }> {
  const list = params.offers;
  if (!Array.isArray(list) || list.length === 0) throw invalidParams('invalid parameters: offers must be a non-empty array');
  const wanted = list.map((raw: unknown, i) => {
    const o = (typeof raw === 'object' && raw !== null ? raw : {}) as Params;
    if (typeof o.seller !== 'string' || !StrKey.isValidEd25519PublicKey(o.seller)) {
      throw invalidParams(`invalid parameters: offers[${i}].seller must be an account address (G…), got ${JSON.stringify(o.seller)}`);
    }
    const { selling, buying } = book(o);
    return { seller: o.seller, selling, buying, amount: amountParam(o.amount, `offers[${i}].amount`), ...priceParam(o.price, `offers[${i}].price`) };
  });
  const added: OfferRow[] = [];
  await ledger.directWrite(async (c) => {
    for (const [i, o] of wanted.entries()) {
      if (!await ledger.store.getAccount(o.seller)) throw invalidParams(`invalid parameters: offers[${i}].seller ${o.seller} has no account`);
      const offer = { seller: o.seller, selling: o.selling, buying: o.buying, amount: o.amount, priceN: o.n, priceD: o.d };
      added.push({ id: await ledger.store.insertOffer(offer, c.ledger), ...offer });
      await moveSubentries(ledger, o.seller, 1, c.ledger);
    }
  });
  return { offers: added.map(offerJson) };
}
