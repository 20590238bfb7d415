import { pageRequest } from '../../http/pagination.js';
import type { RouteDef } from '../../http/route.js';
import { input } from '../../http/validate.js';
import { caller } from '../../http/caller.js';
import type { LedgerService } from './service.js';

export function ledgerRoutes(service: LedgerService): RouteDef[] {
  return [
    { operationId: 'listLedgerBalances', handler: async (_req, res) => void res.json(await service.balances(caller(res))) },
    {
      operationId: 'listLedgerEntries',
      handler: async (_req, res) => {
        const { query } = input(res);
        res.json(await service.entries(caller(res), { asset: query.asset, fundingIntentId: query.funding_intent_id }, pageRequest(query)));
      },
    },
  ];
}
