/** Balanced journals: each movement writes a debit and a credit of the same amount. */
import { newId } from '../lib/ids.js';
import { isoNow } from '../lib/time.js';
import type { EntryType, LedgerAccount, LedgerRepo } from '../records/ledger.js';
import type { Environment } from '../domain/environment.js';

export interface Journal {
  applicationId: string;
  environment: Environment;
  type: EntryType;
  asset: string;
  amount: bigint;
  credit: LedgerAccount;
  debit: LedgerAccount;
  fundingIntentId?: string | null;
  settlementId?: string | null;
  refundId?: string | null;
  description: string;
}

export async function postJournal(repo: LedgerRepo, j: Journal): Promise<string> {
  const journalId = `jnl_${newId('ledger_entry').slice(3)}`;
  const createdAt = isoNow();
  for (const [account, direction] of [[j.credit, 'CREDIT'], [j.debit, 'DEBIT']] as const) {
    await repo.insert({
      id: newId('ledger_entry'), application_id: j.applicationId, environment: j.environment, journal_id: journalId, account, direction,
      type: j.type, asset: j.asset, amount: j.amount, funding_intent_id: j.fundingIntentId ?? null, settlement_id: j.settlementId ?? null,
      refund_id: j.refundId ?? null, description: j.description, created_at: createdAt,
    });
  }
  return journalId;
}
