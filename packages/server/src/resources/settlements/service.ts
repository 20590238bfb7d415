import { notFound } from '../../http/api-error.js';
import { toList } from '../../http/pagination.js';
import type { PageRequest } from '../../domain/page.js';
import type { Caller } from '../../domain/caller.js';
import type { IntentOwnership } from '../../records/funding-intents.js';
import { presentSettlement } from './present.js';
import type { SettlementsRepo } from '../../records/settlements.js';

export class SettlementsService {
  constructor(private readonly repo: SettlementsRepo, private readonly fundingIntents: IntentOwnership) {}

  async get(caller: Caller, id: string) {
    const settlement = await this.repo.findById(id);
    if (!settlement || settlement.application_id !== caller.applicationId) throw notFound('settlement');
    await this.fundingIntents.load(caller, settlement.funding_intent_id);
    return presentSettlement(settlement);
  }

  async list(caller: Caller, filters: { fundingIntentId?: string; status?: string }, page: PageRequest) {
    return toList(await this.repo.list(caller.applicationId, caller.environment, filters, page), page, presentSettlement);
  }
}
