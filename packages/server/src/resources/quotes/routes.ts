import type { Response } from 'express';
import { applicationAuth } from '../../http/context.js';
import { pageRequest } from '../../http/pagination.js';
import { body, type RouteDef } from '../../http/route.js';
import { input } from '../../http/validate.js';
import type { QuoteCaller } from './deps.js';
import type { QuoteStatus } from '../../records/quotes.js';
import type { QuotesService } from './service.js';
import type { SimpleQuoteInput } from './simple.js';

/** Quotes list 20 per page by default (INTERFACE.md limits). */
const QUOTE_PAGE = 20;

function caller(res: Response): QuoteCaller {
  const context = applicationAuth(res);
  const base = { applicationId: context.application.id, environment: context.environment };
  return context.kind === 'checkout' ? { ...base, boundIntentId: context.fundingIntentId } : base;
}

const pathId = (res: Response) => String(input(res).path.id);

export function quoteRoutes(service: QuotesService): RouteDef[] {
  return [
    { operationId: 'listFundingOptions', handler: async (_req, res) => void res.json(await service.options(caller(res), pathId(res))) },
    { operationId: 'acceptQuote', handler: async (_req, res) => void res.json(await service.accept(caller(res), pathId(res))) },
    { operationId: 'createSimpleQuote', handler: async (req, res) => void res.status(201).json(await service.simple(caller(res), body<SimpleQuoteInput>(req))) },
    { operationId: 'retrieveQuote', handler: async (_req, res) => void res.json(await service.get(caller(res), pathId(res))) },
    {
      operationId: 'listQuotes',
      handler: async (_req, res) => {
        const { query } = input(res);
        const filters = { funding_intent_id: query.funding_intent_id as string | undefined, status: query.status as QuoteStatus | undefined };
        res.json(await service.list(caller(res), filters, pageRequest(query, QUOTE_PAGE)));
      },
    },
  ];
}
