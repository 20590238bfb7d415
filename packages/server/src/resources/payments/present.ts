import { fromStroops } from '../../lib/money.js';
import type { PaymentRecord } from '../../records/payments.js';

export function presentPayment(p: PaymentRecord, refundable: bigint) {
  return {
    id: p.id,
    object: 'payment' as const,
    funding_intent_id: p.funding_intent_id,
    network: 'stellar' as const,
    stellar_network: p.stellar_network,
    asset: p.asset_code,
    stellar_asset: p.stellar_asset,
    amount: fromStroops(p.amount),
    payer_address: p.payer_address,
    destination_address: p.destination_address,
    transaction_hash: p.transaction_hash,
    operation_id: p.operation_id,
    ledger: p.ledger,
    memo: p.memo_type && p.memo_type !== 'none' ? { type: p.memo_type, value: p.memo_value } : null,
    status: p.status,
    failure: p.failure_code ? { code: p.failure_code, message: p.failure_message ?? '' } : null,
    detected_at: p.detected_at,
    confirmed_at: p.confirmed_at,
    refundable_amount: fromStroops(refundable),
  };
}
