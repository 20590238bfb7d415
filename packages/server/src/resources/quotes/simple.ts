/**
 * POST /v1/quotes (simple form): a conversion priced now and stored LOCKED for 30 seconds.
 * INTERFACE.md types its amounts as numbers; the exact decimals travel beside them.
 */
import { ApiError, parseAmountInput } from '../../http/api-error.js';
import type { Environment } from '../../domain/environment.js';
import { fromStroops, toNumber } from '../../lib/money.js';
import { numberToStroops } from '../../pricing/amounts.js';
import { priceReceive, priceSend, type AssetCode, type PricedPath } from '../../pricing/price.js';
import type { StellarNetwork } from '../../stellar/index.js';
import { buildQuote, networkFee } from './build.js';
import { isoIn, type QuoteCaller, type QuotesDeps } from './deps.js';
import type { QuoteRecord } from '../../records/quotes.js';

export interface SimpleQuoteInput {
  from_currency: string;
  to_currency: string;
  amount: number;
  direction: 'send' | 'receive';
}

const LOCK_SECONDS = 30;

async function currency(deps: QuotesDeps, environment: Environment, code: string, field: string): Promise<AssetCode> {
  const asset = await deps.assets.findEnabled(environment, code);
  if (!asset) throw new ApiError('UNSUPPORTED_ASSET', `${field} ${code} is not supported; use USDC, EURC or XLM`, { details: [{ path: `body.${field}`, message: 'is not a supported asset' }] });
  return asset.code as AssetCode;
}

const noRoute = (from: string, to: string) => new ApiError('NO_ROUTE_AVAILABLE', `nothing converts ${from} into ${to} now`);

/** Sending: the fee comes off the amount first; too little to convert anything → INSUFFICIENT_INPUT. */
async function priceSending(network: StellarNetwork, from: AssetCode, to: AssetCode, amount: bigint, fee: bigint): Promise<PricedPath> {
  const net = amount - fee;
  const tooSmall = () => new ApiError('INSUFFICIENT_INPUT', `amount does not cover the conversion's fee of ${fromStroops(fee)} ${from}`);
  if (net <= 0n) throw tooSmall();
  const priced = await priceSend(network, from, to, net);
  if (priced) return priced;
  // a route that exists for 1 stroop of output means the amount was merely too small to buy anything
  const reachable = await priceReceive(network, [from], to, 1n);
  throw reachable.length > 0 ? tooSmall() : noRoute(from, to);
}

async function price(network: StellarNetwork, from: AssetCode, to: AssetCode, input: SimpleQuoteInput, amount: bigint) {
  const fee = networkFee(from, true);
  if (input.direction === 'send') {
    const p = await priceSending(network, from, to, amount, fee);
    return { priced: p, expected: amount - fee, send: amount, receive: p.destinationAmount, fee };
  }
  const [p] = await priceReceive(network, [from], to, amount);
  if (!p) throw noRoute(from, to);
  return { priced: p, expected: p.sourceAmount, send: p.sourceAmount + fee, receive: amount, fee };
}

function presentSimple(q: QuoteRecord, direction: string) {
  return {
    object: 'simple_quote' as const, quote_id: q.id, from_currency: q.source_asset, to_currency: q.destination_asset, direction,
    from_amount: toNumber(q.source_amount), to_amount: toNumber(q.destination_amount), rate: Number(q.exchange_rate), fee: toNumber(q.fee_total),
    expires_at: q.expires_at, from_amount_decimal: fromStroops(q.source_amount), to_amount_decimal: fromStroops(q.destination_amount),
    rate_decimal: q.exchange_rate, fee_decimal: fromStroops(q.fee_total),
  };
}

export async function createSimpleQuote(deps: QuotesDeps, caller: QuoteCaller, input: SimpleQuoteInput) {
  const amount = parseAmountInput(() => numberToStroops(input.amount));
  const from = await currency(deps, caller.environment, input.from_currency, 'from_currency');
  const to = await currency(deps, caller.environment, input.to_currency, 'to_currency');
  const network = deps.network(caller.environment);
  if (!network) throw new ApiError('ROUTE_UNAVAILABLE', 'no Stellar network is configured for this environment');
  const same = from === to;
  const p = same ? { priced: null, expected: amount, send: amount, receive: amount, fee: 0n } : await price(network, from, to, input, amount);
  const lockedUntil = isoIn(LOCK_SECONDS);
  const quote = buildQuote(network, {
    applicationId: caller.applicationId, environment: caller.environment, stellarNetwork: deps.assets.network(caller.environment), intentId: null,
    destinationAddress: null, type: input.direction === 'send' ? 'EXACT_INPUT' : 'EXACT_OUTPUT', status: 'LOCKED', sourceCode: from,
    destinationCode: to, sendAmount: p.send, expectedAmount: p.expected, destinationAmount: p.receive, slippageBps: 0,
    expiresAt: lockedUntil, lockExpiresAt: lockedUntil, priced: p.priced,
  });
  await deps.quotes.insert(quote);
  return presentSimple(quote, input.direction);
}
