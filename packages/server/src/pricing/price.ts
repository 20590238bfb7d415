/**
 * Pricing through the StellarNetwork interface only: Horizon path finding on testnet/pubnet, the
 * sandbox ledger's real order book in the sandbox. One path query prices every source asset at
 * once; a second, at a small reference amount, gives the top-of-book price the impact is
 * measured against.
 */
import { ApiError } from '../http/api-error.js';
import { minBig, STROOPS_PER_UNIT } from '../lib/money.js';
import { sameAsset, type AssetRef, type PathQuote, type StellarNetwork } from '../stellar/index.js';

export type AssetCode = 'USDC' | 'EURC' | 'XLM';

export interface PricedPath {
  sourceCode: AssetCode;
  /** what the conversion should consume at the quoted price */
  sourceAmount: bigint;
  destinationAmount: bigint;
  path: AssetRef[];
  priceImpactBps: number;
}

/** Path finding that cannot be reached is our side's outage (503, retryable), never a 500. */
async function reach<T>(query: Promise<T>): Promise<T> {
  try {
    return await query;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError('ROUTE_UNAVAILABLE', 'path finding on the Stellar network is unavailable right now; try again shortly');
  }
}

const best = (quotes: PathQuote[], source: AssetRef) => quotes.filter((q) => sameAsset(q.sourceAsset, source))
  .sort((a, b) => (a.sourceAmount < b.sourceAmount ? -1 : a.sourceAmount > b.sourceAmount ? 1 : 0))[0];

/** How much worse (bps) the price for the amount is than the price for the reference amount. */
function impactBps(q: PathQuote, ref: PathQuote | undefined): number {
  if (!ref || ref.sourceAmount === 0n) return 0;
  const actual = q.sourceAmount * ref.destinationAmount;
  const top = ref.sourceAmount * q.destinationAmount;
  if (actual <= top) return 0;
  return Number(((actual - top) * 10_000n) / top);
}

/** Strict receive: the cheapest way for each source asset to deliver exactly `amount`. */
export async function priceReceive(network: StellarNetwork, sources: AssetCode[], destination: AssetCode, amount: bigint): Promise<PricedPath[]> {
  if (sources.length === 0) return [];
  const sourceAssets = sources.map((c) => network.assets[c]);
  const destinationAsset = network.assets[destination];
  const reference = minBig(amount, STROOPS_PER_UNIT);
  const [quotes, refs] = await reach(Promise.all([
    network.findStrictReceivePaths({ sourceAssets, destinationAsset, destinationAmount: amount }),
    network.findStrictReceivePaths({ sourceAssets, destinationAsset, destinationAmount: reference }),
  ]));
  return sources.flatMap((code) => {
    const q = best(quotes, network.assets[code]);
    if (!q) return [];
    return [{ sourceCode: code, sourceAmount: q.sourceAmount, destinationAmount: q.destinationAmount, path: q.path, priceImpactBps: impactBps(q, best(refs, network.assets[code])) }];
  });
}

/** Strict send: what sending exactly `amount` of `source` yields in `destination`, or null. */
export async function priceSend(network: StellarNetwork, source: AssetCode, destination: AssetCode, amount: bigint): Promise<PricedPath | null> {
  const quotes = await reach(network.findStrictSendPaths({ sourceAsset: network.assets[source], sourceAmount: amount, destinationAssets: [network.assets[destination]] }));
  const q = quotes.sort((a, b) => (a.destinationAmount > b.destinationAmount ? -1 : a.destinationAmount < b.destinationAmount ? 1 : 0))[0];
  if (!q || q.destinationAmount === 0n) return null;
  return { sourceCode: source, sourceAmount: amount, destinationAmount: q.destinationAmount, path: q.path, priceImpactBps: 0 };
}
