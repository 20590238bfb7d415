import { fromStroops } from '../../lib/money.js';
import type { RefundRecord } from '../../records/refunds.js';

export function presentRefund(r: RefundRecord) {
  return {
    id: r.id,
    object: 'refund' as const,
    funding_intent_id: r.funding_intent_id,
    payment_id: r.payment_id,
    application_id: r.application_id,
    asset: r.asset_code,
    amount: fromStroops(r.amount),
    destination: {
      network: r.destination_network,
      asset: r.asset_code,
      address: r.destination_address,
      memo: r.memo_type ? { type: r.memo_type, value: r.memo_value } : null,
    },
    reason: r.reason,
    status: r.status,
    transaction_hash: r.transaction_hash,
    failure: r.failure_code ? { code: r.failure_code, message: r.failure_message ?? '' } : null,
    created_at: r.created_at,
    completed_at: r.completed_at,
  };
}
