/** Route planning over the sandbox book: direct, or through one intermediate asset (2 hops). */
import { assetKey, parseAssetKey } from './shared/assets.js';
import type { PathQuote, StrictReceiveQuery, StrictSendQuery } from './shared/types.js';
import { quoteReceive, quoteSend, type Cross } from './orderbook.js';
import type { SandboxStore } from './store.js';

export interface Plan {
  crosses: Cross[];
  sourceAmount: bigint;
  destAmount: bigint;
}

type PlanError = 'too_few_offers' | 'cross_self';

/** Strict receive along [send, ...path, dest]: walks backwards from the amount to deliver. */
export async function planReceive(
  store: SandboxStore, assets: string[], destAmount: bigint, taker?: string,
): Promise<Plan | PlanError> {
  const crosses: Cross[] = [];
  let need = destAmount;
  for (let i = assets.length - 1; i > 0; i--) {
    const [pay, receive] = [assets[i - 1]!, assets[i]!];
    if (pay === receive) continue;
    const q = await quoteReceive(store, pay, receive, need, taker);
    if (typeof q === 'string') return q;
    crosses.unshift(q);
    need = q.paid;
  }
  return { crosses, sourceAmount: need, destAmount };
}

/** Strict send along [send, ...path, dest]: walks forwards from the amount sent. */
export async function planSend(
  store: SandboxStore, assets: string[], sendAmount: bigint, taker?: string,
): Promise<Plan | PlanError> {
  const crosses: Cross[] = [];
  let have = sendAmount;
  for (let i = 1; i < assets.length; i++) {
    const [pay, receive] = [assets[i - 1]!, assets[i]!];
    if (pay === receive) continue;
    const q = await quoteSend(store, pay, receive, have, taker);
    if (typeof q === 'string') return q;
    crosses.push(q);
    have = q.received;
  }
  return { crosses, sourceAmount: sendAmount, destAmount: have };
}

/** Intermediate-asset lists worth trying from `src` to `dst`. */
async function candidatePaths(store: SandboxStore, src: string, dst: string): Promise<string[][]> {
  if (src === dst) return [[]];
  const books = new Set((await store.books()).map(([selling, buying]) => `${buying}>${selling}`));
  const canConvert = (pay: string, receive: string) => books.has(`${pay}>${receive}`);
  const mids = new Set((await store.books()).flat());
  const paths: string[][] = canConvert(src, dst) ? [[]] : [];
  for (const mid of mids) {
    if (mid !== src && mid !== dst && canConvert(src, mid) && canConvert(mid, dst)) paths.push([mid]);
  }
  return paths;
}

function quote(src: string, dst: string, path: string[], plan: Plan): PathQuote {
  return {
    sourceAsset: parseAssetKey(src),
    sourceAmount: plan.sourceAmount,
    destinationAsset: parseAssetKey(dst),
    destinationAmount: plan.destAmount,
    path: path.map(parseAssetKey),
  };
}

export async function findStrictReceive(store: SandboxStore, q: StrictReceiveQuery): Promise<PathQuote[]> {
  const dst = assetKey(q.destinationAsset);
  const quotes: PathQuote[] = [];
  for (const src of q.sourceAssets.map(assetKey)) {
    for (const path of await candidatePaths(store, src, dst)) {
      const plan = await planReceive(store, [src, ...path, dst], q.destinationAmount);
      if (typeof plan !== 'string') quotes.push(quote(src, dst, path, plan));
    }
  }
  return quotes.sort((a, b) => (a.sourceAmount < b.sourceAmount ? -1 : a.sourceAmount > b.sourceAmount ? 1 : 0));
}

export async function findStrictSend(store: SandboxStore, q: StrictSendQuery): Promise<PathQuote[]> {
  const src = assetKey(q.sourceAsset);
  const quotes: PathQuote[] = [];
  for (const dst of q.destinationAssets.map(assetKey)) {
    for (const path of await candidatePaths(store, src, dst)) {
      const plan = await planSend(store, [src, ...path, dst], q.sourceAmount);
      if (typeof plan !== 'string') quotes.push(quote(src, dst, path, plan));
    }
  }
  return quotes.sort((a, b) => (a.destinationAmount > b.destinationAmount ? -1 : a.destinationAmount < b.destinationAmount ? 1 : 0));
}
