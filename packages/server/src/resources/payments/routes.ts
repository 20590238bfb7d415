import { pageRequest } from '../../http/pagination.js';
import type { RouteDef } from '../../http/route.js';
import { input } from '../../http/validate.js';
import { caller } from '../../http/caller.js';
import type { PaymentsService } from './service.js';

export function paymentRoutes(service: PaymentsService): RouteDef[] {
  return [
    {
      operationId: 'listPayments',
      handler: async (_req, res) => {
        const { query } = input(res);
        res.json(await service.list(caller(res), { fundingIntentId: query.funding_intent_id, status: query.status }, pageRequest(query)));
      },
    },
    { operationId: 'retrievePayment', handler: async (_req, res) => void res.json(await service.get(caller(res), String(input(res).path.id))) },
    {
      operationId: 'listFundingIntentPayments',
      handler: async (_req, res) => {
        const { path, query } = input(res);
        res.json(await service.listForIntent(caller(res), String(path.id), pageRequest(query)));
      },
    },
  ];
}
