import type { Response } from 'express';
import { applicationAuth } from '../../http/context.js';
import type { RouteDef } from '../../http/route.js';
import { input } from '../../http/validate.js';
import type { QuoteCaller } from '../quotes/deps.js';
import type { RouteExecutionsService } from './service.js';

function caller(res: Response): QuoteCaller {
  const context = applicationAuth(res);
  return { applicationId: context.application.id, environment: context.environment };
}

const pathId = (res: Response) => String(input(res).path.id);

export function routeExecutionRoutes(service: RouteExecutionsService): RouteDef[] {
  return [
    { operationId: 'retrieveRouteExecution', handler: (_req, res) => void res.json(service.get(caller(res), pathId(res))) },
    { operationId: 'retryRouteExecution', handler: (_req, res) => void res.json(service.retry(caller(res), pathId(res))) },
    { operationId: 'resumeRouteExecution', handler: (_req, res) => void res.json(service.resume(caller(res), pathId(res))) },
  ];
}
