import { body, type RouteDef } from '../../http/route.js';
import { input } from '../../http/validate.js';
import { caller } from '../../http/caller.js';
import type { TestHelpersService, TestPaymentInput } from './service.js';

export function testHelperRoutes(service: TestHelpersService): RouteDef[] {
  return [
    {
      operationId: 'createTestPayment',
      handler: async (req, res) => {
        res.status(201).json(await service.pay(caller(res), String(input(res).path.id), body<TestPaymentInput>(req)));
      },
    },
    { operationId: 'expireTestFundingIntent', handler: async (_req, res) => void res.json(await service.expire(caller(res), String(input(res).path.id))) },
    { operationId: 'failTestSettlement', handler: async (_req, res) => void res.json(await service.failSettlement(caller(res), String(input(res).path.id))) },
  ];
}
