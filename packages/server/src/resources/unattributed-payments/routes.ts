import type { RouteDef } from '../../http/route.js';
import { input } from '../../http/validate.js';
import type { UnattributedPaymentsService } from './service.js';

/** Operator only (the spec's OperatorKey security; the authentication middleware enforces it). */
export function unattributedPaymentRoutes(service: UnattributedPaymentsService): RouteDef[] {
  return [
    { operationId: 'listUnattributedPayments', handler: async (_req, res) => void res.json(await service.list(Number(input(res).query.limit ?? 20))) },
    {
      operationId: 'refundUnattributedPayment',
      handler: async (req, res) => {
        const body = req.body as { destination_address?: string } | undefined;
        res.json(await service.refund(String(input(res).path.id), body?.destination_address));
      },
    },
  ];
}
