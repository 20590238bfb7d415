import { fromStroops } from '../../lib/money.js';
import { presentExecution } from '../route-executions/present.js';
import type { ExecutionRecord } from '../../records/route-executions.js';
import { feeItems, routeInfo, type QuoteRecord } from '../../records/quotes.js';

/** The wire shape of a quote (spec: Quote). */
export function presentQuote(q: QuoteRecord, execution: ExecutionRecord | undefined) {
  const { path: _path, ...route } = routeInfo(q);
  return {
    id: q.id,
    object: 'quote' as const,
    funding_intent_id: q.funding_intent_id,
    application_id: q.application_id,
    type: q.type,
    status: q.status,
    stellar_network: q.stellar_network,
    source: { network: 'stellar', asset: q.source_asset, amount: fromStroops(q.source_amount), expected_amount: fromStroops(q.source_expected_amount) },
    destination: {
      network: 'stellar', asset: q.destination_asset, address: q.destination_address,
      amount: fromStroops(q.destination_amount), minimum_amount: fromStroops(q.destination_minimum_amount),
    },
    route: { type: q.route_type, provider: q.route_provider, ...route },
    fees: { items: feeItems(q), total: fromStroops(q.fee_total) },
    exchange_rate: q.exchange_rate,
    slippage_bps: q.slippage_bps,
    execution: execution ? presentExecution(execution) : null,
    failure: q.failure_code ? { code: q.failure_code, message: q.failure_message ?? '' } : null,
    expires_at: q.expires_at,
    lock_expires_at: q.lock_expires_at,
    created_at: q.created_at,
    updated_at: q.updated_at,
  };
}

/** One element of the options response (spec: FundingOption). */
export function presentOption(q: QuoteRecord) {
  return {
    id: q.id,
    source: { rail: 'stellar', asset: q.source_asset },
    pay_amount: { amount: fromStroops(q.source_amount), asset: `stellar:${q.source_asset}` },
    receive_amount_min: { amount: fromStroops(q.destination_minimum_amount), asset: `stellar:${q.destination_asset}` },
    estimated_duration_seconds: routeInfo(q).estimated_duration_seconds,
    expires_at: q.expires_at,
    fees: feeItems(q),
  };
}
