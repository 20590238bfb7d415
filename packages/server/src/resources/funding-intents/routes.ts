import { caller } from '../../http/caller.js';
import { pageRequest } from '../../http/pagination.js';
import { body, type RouteDef } from '../../http/route.js';
import { input } from '../../http/validate.js';
import { sendJsonWith } from '../../http/json.js';
import { presentedJson } from './read-model.js';
import type { FundingIntentsService, CreateIntentInput } from './service.js';

export function fundingIntentRoutes(service: FundingIntentsService): RouteDef[] {
  return [
    {
      operationId: 'createFundingIntent',
      handler: async (req, res) => {
        // the read model keeps the new intent's JSON: sent as those bytes, not stringified again
        sendJsonWith(res.status(201), await service.create(caller(res), body<CreateIntentInput>(req)), presentedJson);
      },
    },
    {
      operationId: 'listFundingIntents',
      handler: async (_req, res) => {
        const { query } = input(res);
        sendJsonWith(res, await service.list(caller(res), { status: query.status, reference: query.reference }, pageRequest(query)), presentedJson);
      },
    },
    {
      operationId: 'retrieveFundingIntent',
      handler: async (_req, res) => {
        sendJsonWith(res, await service.get(caller(res), String(input(res).path.id)), presentedJson);
      },
    },
    {
      operationId: 'cancelFundingIntent',
      handler: async (_req, res) => {
        res.json(await service.cancel(caller(res), String(input(res).path.id)));
      },
    },
  ];
}
