/** Turns a priced path (or a direct transfer) into a stored Quote row. */
import type { Environment } from '../../domain/environment.js';
import { newId } from '../../lib/ids.js';
import { fromStroops } from '../../lib/money.js';
import { isoNow } from '../../lib/time.js';
import { rateDecimal } from '../../pricing/amounts.js';
import type { PricedPath } from '../../pricing/price.js';
import { assetKey, type StellarNetwork } from '../../stellar/index.js';
import type { FeeItem, QuoteRecord, QuoteStatus, RouteInfo } from '../../records/quotes.js';

/** Stellar's fee for the conversion and the settlement (100 stroops per operation). */
export const NETWORK_FEE_STROOPS = 200n;
const PROVIDER = 'stellar';

export interface QuoteDraft {
  applicationId: string;
  environment: Environment;
  stellarNetwork: string;
  intentId: string | null;
  destinationAddress: string | null;
  type: QuoteRecord['type'];
  status: QuoteStatus;
  sourceCode: string;
  destinationCode: string;
  /** what the payer sends (margin included), what the conversion should consume, what arrives */
  sendAmount: bigint;
  expectedAmount: bigint;
  destinationAmount: bigint;
  slippageBps: number;
  expiresAt: string;
  lockExpiresAt: string | null;
  priced: PricedPath | null;
}

/** The treasury pays Stellar's fees; only an XLM payer's conversion shows them, in XLM. */
export function networkFee(sourceCode: string, converted: boolean): bigint {
  return converted && sourceCode === 'XLM' ? NETWORK_FEE_STROOPS : 0n;
}

function route(network: StellarNetwork | null, d: QuoteDraft): RouteInfo {
  const key = (code: string) => (network ? assetKey(network.assets[code as 'USDC']) : code);
  if (!d.priced) {
    return { steps: [{ type: 'TRANSFER', provider: PROVIDER, source_asset: key(d.sourceCode), destination_asset: key(d.destinationCode) }],
      path: [], estimated_duration_seconds: 5, confidence: 1, price_impact_bps: 0, score: '1.0000' };
  }
  const hops = [key(d.sourceCode), ...d.priced.path.map(assetKey), key(d.destinationCode)];
  const impact = Math.min(d.priced.priceImpactBps, 10_000);
  // confidence in a DEX route: a little below a plain transfer; the impact lowers the score further
  return {
    steps: hops.slice(1).map((to, i) => ({ type: 'PATH_PAYMENT' as const, provider: PROVIDER, source_asset: hops[i]!, destination_asset: to })),
    path: d.priced.path.map(assetKey), estimated_duration_seconds: 10, confidence: 0.95, price_impact_bps: impact,
    score: ((0.95 * (10_000 - impact)) / 10_000).toFixed(4),
  };
}

export function buildQuote(network: StellarNetwork | null, d: QuoteDraft): QuoteRecord {
  const now = isoNow();
  const fee = networkFee(d.sourceCode, d.priced !== null);
  const fees: FeeItem[] = [{ type: 'NETWORK', asset: d.sourceCode, amount: fromStroops(fee) }];
  return {
    id: newId('quote'), application_id: d.applicationId, environment: d.environment, funding_intent_id: d.intentId, type: d.type,
    status: d.status, stellar_network: d.stellarNetwork, source_asset: d.sourceCode, source_amount: d.sendAmount,
    source_expected_amount: d.expectedAmount, destination_asset: d.destinationCode, destination_address: d.destinationAddress,
    destination_amount: d.destinationAmount, destination_minimum_amount: d.destinationAmount,
    route_type: d.priced ? 'STELLAR_PATH_PAYMENT' : 'DIRECT_STELLAR', route_provider: PROVIDER, route_json: JSON.stringify(route(network, d)),
    fees_json: JSON.stringify(fees), fee_total: fee, exchange_rate: rateDecimal(d.destinationAmount, d.expectedAmount || d.destinationAmount),
    slippage_bps: d.slippageBps, failure_code: null, failure_message: null, expires_at: d.expiresAt, lock_expires_at: d.lockExpiresAt,
    created_at: now, updated_at: now,
  };
}
