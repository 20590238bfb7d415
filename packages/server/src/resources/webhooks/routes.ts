import type { Response } from 'express';
import { applicationAuth } from '../../http/context.js';
import { pageRequest } from '../../http/pagination.js';
import { body, type RouteDef } from '../../http/route.js';
import { input } from '../../http/validate.js';
import type { WebhookDeliveriesService } from './deliveries-service.js';
import type { CreateEndpointInput, UpdateEndpointInput, WebhookCaller, WebhookEndpointsService } from './service.js';

function caller(res: Response): WebhookCaller {
  const context = applicationAuth(res);
  return { applicationId: context.application.id, environment: context.environment };
}

const id = (res: Response) => String(input(res).path.id);

function endpointRoutes(endpoints: WebhookEndpointsService): RouteDef[] {
  return [
    { operationId: 'createWebhookEndpoint', handler: async (req, res) => void res.status(201).json(await endpoints.create(caller(res), body<CreateEndpointInput>(req))) },
    { operationId: 'listWebhookEndpoints', handler: async (_req, res) => void res.json(await endpoints.list(caller(res), pageRequest(input(res).query))) },
    { operationId: 'retrieveWebhookEndpoint', handler: async (_req, res) => void res.json(await endpoints.get(caller(res), id(res))) },
    { operationId: 'updateWebhookEndpoint', handler: async (req, res) => void res.json(await endpoints.update(caller(res), id(res), body<UpdateEndpointInput>(req))) },
    { operationId: 'deleteWebhookEndpoint', handler: async (_req, res) => void res.json(await endpoints.remove(caller(res), id(res))) },
    { operationId: 'rotateWebhookSecret', handler: async (_req, res) => void res.json(await endpoints.rotate(caller(res), id(res))) },
    { operationId: 'expireWebhookPreviousSecret', handler: async (_req, res) => void res.json(await endpoints.expirePrevious(caller(res), id(res))) },
  ];
}

function deliveryRoutes(deliveries: WebhookDeliveriesService): RouteDef[] {
  return [
    { operationId: 'sendTestWebhook', handler: async (_req, res) => void res.status(201).json(await deliveries.sendTest(caller(res), id(res))) },
    {
      operationId: 'listWebhookDeliveries',
      handler: async (_req, res) => {
        const { query } = input(res);
        res.json(await deliveries.list(caller(res), id(res), { status: query.status, eventId: query.event_id }, pageRequest(query)));
      },
    },
    {
      operationId: 'redeliverWebhook',
      handler: async (_req, res) => void res.status(202).json(await deliveries.redeliver(caller(res), id(res), String(input(res).path.deliveryId))),
    },
  ];
}

export function webhookRoutes(endpoints: WebhookEndpointsService, deliveries: WebhookDeliveriesService): RouteDef[] {
  return [...endpointRoutes(endpoints), ...deliveryRoutes(deliveries)];
}
