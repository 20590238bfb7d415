import { applicationAuth } from '../../http/context.js';
import { pageRequest } from '../../http/pagination.js';
import type { RouteDef } from '../../http/route.js';
import { input } from '../../http/validate.js';
import type { RequestLogsService } from './service.js';

export function requestLogRoutes(service: RequestLogsService): RouteDef[] {
  return [
    {
      operationId: 'listRequestLogs',
      handler: async (_req, res) => {
        const { application, environment } = applicationAuth(res);
        const { query } = input(res);
        res.json(await service.list(application.id, environment, { status: query.status, method: query.method }, pageRequest(query)));
      },
    },
    {
      operationId: 'retrieveRequestLog',
      handler: async (_req, res) => {
        const { application, environment } = applicationAuth(res);
        res.json(await service.get(application.id, environment, String(input(res).path.id)));
      },
    },
  ];
}
