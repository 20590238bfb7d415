import type { Response } from 'express';
import { applicationAuth } from '../../http/context.js';
import type { RouteDef } from '../../http/route.js';
import { input } from '../../http/validate.js';
import type { Caller } from '../../domain/caller.js';
import type { RouteExecutionsService } from './service.js';

function caller(res: Response): Caller {
  const context = applicationAuth(res);
  return { applicationId: context.application.id, environment: context.environment };
}

const pathId = (res: Response) => String(input(res).path.id);

export function routeExecutionRoutes(service: RouteExecutionsService): RouteDef[] {
  return [
    { operationId: 'retrieveRouteExecution', handler: async (_req, res) => void res.json(await service.get(caller(res), pathId(res))) },
    { operationId: 'retryRouteExecution', handler: async (_req, res) => void res.json(await service.retry(caller(res), pathId(res))) },
    { operationId: 'resumeRouteExecution', handler: async (_req, res) => void res.json(await service.resume(caller(res), pathId(res))) },
  ];
}
