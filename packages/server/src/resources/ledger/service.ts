import { toList } from '../../http/pagination.js';
import type { PageRequest } from '../../domain/page.js';
import { fromStroops } from '../../lib/money.js';
import type { Caller } from '../../domain/caller.js';
import type { LedgerEntryRecord, LedgerRepo } from '../../records/ledger.js';

const ASSETS = ['USDC', 'EURC', 'XLM'];

function presentEntry(e: LedgerEntryRecord) {
  return {
    id: e.id, object: 'ledger_entry' as const, application_id: e.application_id, journal_id: e.journal_id, account: e.account,
    direction: e.direction, type: e.type, asset: e.asset, amount: fromStroops(e.amount), funding_intent_id: e.funding_intent_id,
    settlement_id: e.settlement_id, refund_id: e.refund_id, description: e.description, created_at: e.created_at,
  };
}

export class LedgerService {
  constructor(private readonly repo: LedgerRepo) {}

  /** available = the sum of the application's entries, always (no stored balance to drift). */
  async available(caller: Caller, asset: string): Promise<bigint> {
    return (await this.repo.balances(caller.applicationId, caller.environment)).get(asset) ?? 0n;
  }

  async balances(caller: Caller) {
    const available = await this.repo.balances(caller.applicationId, caller.environment);
    const pending = await this.repo.pending(caller.applicationId, caller.environment);
    const assets = [...new Set([...ASSETS, ...available.keys(), ...pending.keys()])];
    const data = assets.map((asset) => ({
      object: 'ledger_balance' as const, asset, available: fromStroops(available.get(asset) ?? 0n), pending: fromStroops(pending.get(asset) ?? 0n),
    }));
    return { object: 'list' as const, data, next_cursor: null };
  }

  async entries(caller: Caller, filters: { asset?: string; fundingIntentId?: string }, page: PageRequest) {
    return toList(await this.repo.list(caller.applicationId, caller.environment, filters, page), page, presentEntry);
  }
}
