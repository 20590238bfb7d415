import { pageRequest } from '../../http/pagination.js';
import { body, type RouteDef } from '../../http/route.js';
import { input } from '../../http/validate.js';
import { caller } from '../../http/caller.js';
import type { CreateRefundInput, RefundsService } from './service.js';

export function refundRoutes(service: RefundsService): RouteDef[] {
  return [
    {
      operationId: 'createRefund',
      handler: async (req, res) => {
        const { path } = input(res);
        res.status(201).json(await service.create(caller(res), String(path.id), String(path.paymentId), body<CreateRefundInput>(req)));
      },
    },
    {
      operationId: 'listPaymentRefunds',
      handler: async (_req, res) => {
        const { path, query } = input(res);
        res.json(await service.listForPayment(caller(res), String(path.id), String(path.paymentId), pageRequest(query)));
      },
    },
    {
      operationId: 'listRefunds',
      handler: async (_req, res) => {
        const { query } = input(res);
        res.json(await service.list(caller(res), { fundingIntentId: query.funding_intent_id, paymentId: query.payment_id, status: query.status }, pageRequest(query)));
      },
    },
    { operationId: 'retrieveRefund', handler: async (_req, res) => void res.json(await service.get(caller(res), String(input(res).path.id))) },
  ];
}
