import { fromStroops } from '../../lib/money.js';
import type { SettlementRecord } from '../../records/settlements.js';

export function presentSettlement(s: SettlementRecord) {
  return {
    id: s.id,
    object: 'settlement' as const,
    funding_intent_id: s.funding_intent_id,
    application_id: s.application_id,
    payment_id: s.payment_id,
    network: 'stellar' as const,
    stellar_network: s.stellar_network,
    route: s.route,
    source: { asset: s.source_asset, amount: fromStroops(s.source_amount) },
    destination: { network: 'stellar', asset: s.destination_asset, address: s.destination_address, amount: fromStroops(s.destination_amount) },
    transaction_hash: s.transaction_hash,
    transfer_transaction_hash: s.transfer_transaction_hash,
    protocol: {
      settlement_id: s.protocol_settlement_id,
      contract_id: s.protocol_contract_id,
      create_transaction_hash: s.protocol_create_transaction_hash,
      confirm_transaction_hash: s.protocol_confirm_transaction_hash,
    },
    status: s.status,
    reconciliation_status: s.reconciliation_status,
    failure: s.failure_code ? { code: s.failure_code, message: s.failure_message ?? '' } : null,
    submitted_at: s.submitted_at,
    confirmed_at: s.confirmed_at,
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
}
