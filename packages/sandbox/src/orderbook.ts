/**
 * Crossing the sandbox order book. An offer sells `selling` for `buying` at n/d buying per
 * selling; a taker who receives X and pays Y crosses offers selling X buying Y, best price first.
 * Rounding always favours the maker, as stellar-core does.
 */
import { xdr, Keypair } from '@stellar/stellar-sdk';
import { toSdkAsset, parseAssetKey } from './shared/assets.js';
import { ceilDiv } from './accounts.js';
import { spendable } from './balances.js';
import type { SandboxStore } from './store.js';

export interface Fill {
  offerId: number;
  seller: string;
  /** Amount of the offer's selling asset the taker received. */
  sold: bigint;
  /** Amount of the offer's buying asset the taker paid. */
  bought: bigint;
}

export interface Cross {
  pay: string;
  receive: string;
  paid: bigint;
  received: bigint;
  fills: Fill[];
}

/** Offers with what their seller can really deliver (an unfunded offer delivers less). */
async function liveOffers(store: SandboxStore, selling: string, buying: string, taker?: string) {
  return Promise.all((await store.bookOffers(selling, buying)).map(async (o) => {
    const can = await spendable(store, o.seller, selling);
    // spendable() already subtracts this offer's own liability; add it back.
    const funded = typeof can === 'string' ? 0n : can + o.amount;
    return { ...o, amount: o.amount < funded ? o.amount : funded < 0n ? 0n : funded, self: o.seller === taker };
  }));
}

/** Strict receive over one book: what receiving `amount` of `receive` costs in `pay`. */
export async function quoteReceive(
  store: SandboxStore, pay: string, receive: string, amount: bigint, taker?: string,
): Promise<Cross | 'too_few_offers' | 'cross_self'> {
  const fills: Fill[] = [];
  let left = amount;
  let paid = 0n;
  for (const o of await liveOffers(store, receive, pay, taker)) {
    if (left === 0n) break;
    if (o.amount === 0n) continue;
    if (o.self) return 'cross_self';
    const sold = o.amount < left ? o.amount : left;
    const bought = ceilDiv(sold * o.priceN, o.priceD);
    fills.push({ offerId: o.id, seller: o.seller, sold, bought });
    left -= sold;
    paid += bought;
  }
  if (left > 0n) return 'too_few_offers';
  return { pay, receive, paid, received: amount, fills };
}

/** Strict send over one book: what paying exactly `amount` of `pay` yields in `receive`. */
export async function quoteSend(
  store: SandboxStore, pay: string, receive: string, amount: bigint, taker?: string,
): Promise<Cross | 'too_few_offers' | 'cross_self'> {
  const fills: Fill[] = [];
  let left = amount;
  let received = 0n;
  for (const o of await liveOffers(store, receive, pay, taker)) {
    if (left === 0n) break;
    if (o.amount === 0n) continue;
    if (o.self) return 'cross_self';
    const fullCost = ceilDiv(o.amount * o.priceN, o.priceD);
    const takesAll = fullCost <= left;
    const sold = takesAll ? o.amount : (left * o.priceD) / o.priceN;
    const bought = takesAll ? fullCost : left;
    fills.push({ offerId: o.id, seller: o.seller, sold, bought });
    left -= bought;
    received += sold;
  }
  if (left > 0n || received === 0n) return 'too_few_offers';
  return { pay, receive, paid: amount, received, fills };
}

/** Moves the makers' balances for real and shrinks (or removes) their offers. */
export async function settleCross(store: SandboxStore, cross: Cross, ledger: number): Promise<void> {
  for (const f of cross.fills) {
    const offer = (await store.bookOffers(cross.receive, cross.pay)).find((o) => o.id === f.offerId)!;
    await moveMaker(store, f.seller, cross.receive, -f.sold, ledger);
    await moveMaker(store, f.seller, cross.pay, f.bought, ledger);
    const rest = offer.amount - f.sold;
    if (rest > 0n) {
      await store.setOfferAmount(offer.id, rest, ledger);
    } else {
      await store.deleteOffer(offer.id);
      const seller = (await store.getAccount(f.seller))!;
      await store.putAccount({ ...seller, subentries: seller.subentries - 1, lastModifiedLedger: ledger });
    }
  }
}

// The maker's balances back its offers (liabilities), so no reserve or limit check is due here.
async function moveMaker(store: SandboxStore, seller: string, asset: string, delta: bigint, ledger: number) {
  if (asset !== 'native' && parseAssetKey(asset).issuer === seller) return;
  if (asset === 'native') {
    const a = (await store.getAccount(seller))!;
    await store.putAccount({ ...a, balance: a.balance + delta, lastModifiedLedger: ledger });
    return;
  }
  const line = (await store.getTrustline(seller, asset))!;
  await store.putTrustline({ ...line, balance: line.balance + delta, lastModifiedLedger: ledger });
}

/** ClaimAtoms for a path payment's success result. */
export function claimAtoms(crosses: Cross[]): xdr.ClaimAtom[] {
  return crosses.flatMap((c) =>
    c.fills.map((f) =>
      xdr.ClaimAtom.claimAtomTypeOrderBook(
        new xdr.ClaimOfferAtom({
          sellerId: Keypair.fromPublicKey(f.seller).xdrAccountId(),
          offerId: xdr.Int64.fromString(String(f.offerId)),
          assetSold: toSdkAsset(parseAssetKey(c.receive)).toXdrObject(),
          amountSold: xdr.Int64.fromString(f.sold.toString()),
          assetBought: toSdkAsset(parseAssetKey(c.pay)).toXdrObject(),
          amountBought: xdr.Int64.fromString(f.bought.toString()),
        }),
      ),
    ),
  );
}
