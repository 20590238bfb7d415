import { pageRequest } from '../../http/pagination.js';
import type { RouteDef } from '../../http/route.js';
import { input } from '../../http/validate.js';
import { callerOf } from '../../pipeline/caller.js';
import type { LedgerService } from './service.js';

export function ledgerRoutes(service: LedgerService): RouteDef[] {
  return [
    { operationId: 'listLedgerBalances', handler: async (_req, res) => void res.json(await service.balances(callerOf(res))) },
    {
      operationId: 'listLedgerEntries',
      handler: async (_req, res) => {
        const { query } = input(res);
        res.json(await service.entries(callerOf(res), { asset: query.asset, fundingIntentId: query.funding_intent_id }, pageRequest(query)));
      },
    },
  ];
}
