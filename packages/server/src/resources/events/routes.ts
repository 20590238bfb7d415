import { applicationAuth } from '../../http/context.js';
import { pageRequest } from '../../http/pagination.js';
import type { RouteDef } from '../../http/route.js';
import { input } from '../../http/validate.js';
import type { EventsService } from './service.js';

export function eventRoutes(service: EventsService): RouteDef[] {
  return [
    {
      operationId: 'listEvents',
      handler: async (_req, res) => {
        const { application, environment } = applicationAuth(res);
        const { query } = input(res);
        res.json(await service.list(application.id, environment, query.type as string | undefined, pageRequest(query)));
      },
    },
    {
      operationId: 'retrieveEvent',
      handler: async (_req, res) => {
        const { application, environment } = applicationAuth(res);
        res.json(await service.get(application.id, environment, String(input(res).path.id)));
      },
    },
  ];
}
