import { pageRequest } from '../../http/pagination.js';
import type { RouteDef } from '../../http/route.js';
import { input } from '../../http/validate.js';
import { caller } from '../../http/caller.js';
import type { SettlementsService } from './service.js';

export function settlementRoutes(service: SettlementsService): RouteDef[] {
  return [
    {
      operationId: 'listSettlements',
      handler: async (_req, res) => {
        const { query } = input(res);
        res.json(await service.list(caller(res), { fundingIntentId: query.funding_intent_id, status: query.status }, pageRequest(query)));
      },
    },
    { operationId: 'retrieveSettlement', handler: async (_req, res) => void res.json(await service.get(caller(res), String(input(res).path.id))) },
  ];
}
