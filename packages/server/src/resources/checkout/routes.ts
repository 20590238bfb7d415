import type { Response } from 'express';
import { applicationAuth, auth } from '../../http/context.js';
import { body, type RouteDef } from '../../http/route.js';
import { input } from '../../http/validate.js';
import type { CheckoutService, HandoffCaller, HandoffInput, KeyCaller, ResumeInput, Viewer } from './service.js';
import { streamStatus, wantsEventStream } from './stream.js';

function keyCaller(res: Response): KeyCaller {
  const context = applicationAuth(res);
  return { applicationId: context.application.id, environment: context.environment };
}

function viewer(res: Response): Viewer {
  const context = applicationAuth(res);
  const { id, name, logo_url } = context.application;
  const base = { applicationId: id, environment: context.environment, application: { id, name, logo_url } };
  return context.kind === 'checkout' ? { ...base, boundIntentId: context.fundingIntentId } : base;
}

function handoffCaller(res: Response): HandoffCaller {
  const context = auth(res);
  return context.kind === 'checkout' ? { kind: 'session', sessionId: context.sessionId } : { kind: 'secret', ...keyCaller(res) };
}

const pathId = (res: Response) => String(input(res).path.id);

export function checkoutRoutes(service: CheckoutService): RouteDef[] {
  return [
    {
      operationId: 'createCheckoutSession',
      handler: async (req, res) => {
        res.status(201).json(await service.create(keyCaller(res), body<{ funding_intent_id: string }>(req).funding_intent_id));
      },
    },
    {
      operationId: 'createCheckoutHandoff',
      handler: async (req, res) => {
        res.status(201).json(await service.handoff(handoffCaller(res), pathId(res), body<HandoffInput>(req)));
      },
    },
    {
      operationId: 'resumeCheckoutSession',
      handler: async (req, res) => {
        res.json(await service.resume(keyCaller(res), body<ResumeInput>(req)));
      },
    },
    {
      operationId: 'retrievePublicFundingIntent',
      handler: async (_req, res) => {
        res.json(await service.publicView(viewer(res), pathId(res)));
      },
    },
    {
      operationId: 'streamPublicFundingIntentStatus',
      handler: async (req, res) => {
        const id = pathId(res);
        const who = viewer(res);
        if (!wantsEventStream(req)) return void res.json(await service.publicView(who, id));
        await streamStatus(res, { view: () => service.publicView(who, id), follow: (listener) => service.followStatus(id, listener) });
      },
    },
  ];
}
