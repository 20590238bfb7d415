/**
 * The sandbox protocol registry: deterministic record ids in a fixed local "contract", so the
 * `protocol` fields have the same shape as the on-chain registry's. The transaction hashes are the
 * real sandbox transactions that registered (provisioning) and confirmed (settlement) the record.
 */
import { createHash } from 'node:crypto';
import { StrKey } from '@stellar/stellar-sdk';
import type { FundingIntentRecord } from '../records/funding-intents.js';
import type { SettlementRecord } from '../records/settlements.js';

const digest = (text: string) => createHash('sha256').update(text).digest();

export const SANDBOX_REGISTRY_CONTRACT = StrKey.encodeContract(digest('fundkit/sandbox-registry'));

export function protocolIntentId(intentId: string): string {
  return digest(`intent/${intentId}`).toString('hex');
}

export function protocolSettlementId(settlementId: string): string {
  return digest(`settlement/${settlementId}`).toString('hex');
}

/** The intent's `protocol` object; null fields while the intent is not registered (no sandbox record). */
export function intentProtocol(intent: FundingIntentRecord, registrationHash: string | null, settlement: SettlementRecord | undefined) {
  if (!registrationHash) return { intent_id: null, contract_id: null, status: 'PENDING', transaction_hash: null };
  const confirmed = settlement?.status === 'CONFIRMED';
  const status = intent.status === 'FAILED' ? 'FAILED' : confirmed ? 'CONFIRMED' : 'REGISTERED';
  return {
    intent_id: protocolIntentId(intent.id),
    contract_id: SANDBOX_REGISTRY_CONTRACT,
    status,
    transaction_hash: confirmed ? settlement!.transfer_transaction_hash : registrationHash,
  };
}
