import { ApiError, notFound } from '../../http/api-error.js';
import type { Environment } from '../../domain/environment.js';
import type { StellarNetwork } from '../../stellar/index.js';
import type { AssetsService } from '../assets/service.js';
import type { ExecutionsRepo } from '../../records/route-executions.js';
import type { LinkedIntent, QuoteIntentsRepo } from '../../records/quote-intent-link.js';
import type { QuoteRecord, QuotesRepo } from '../../records/quotes.js';
import type { Sql } from '../../db/sql.js';

/** The application acting; a checkout session is bound to one intent. */
export interface QuoteCaller {
  applicationId: string;
  environment: Environment;
  boundIntentId?: string;
}

export interface QuotesDeps {
  sql: Sql;
  quotes: QuotesRepo;
  executions: ExecutionsRepo;
  intents: QuoteIntentsRepo;
  assets: AssetsService;
  /** the Stellar network of an environment, or null when none is wired (no conversions then) */
  network: (environment: Environment) => StellarNetwork | null;
  /** the deposit account can hold `code` (a sponsored trustline); no-op for XLM */
  ensureTrust: (intentId: string, code: string, environment: Environment) => Promise<void>;
  ttlSeconds: number;
  slippageBps: number;
}

/** Another application's object is 404; the other environment's 403; another intent's session 403. */
function checkOwner(caller: QuoteCaller, owner: { application_id: string; environment: Environment }, what: string): void {
  if (owner.application_id !== caller.applicationId) throw notFound(what);
  if (owner.environment !== caller.environment) {
    throw new ApiError('FORBIDDEN', `this ${what} belongs to the ${owner.environment} environment; use a ${owner.environment} key`);
  }
}

export function checkBound(caller: QuoteCaller, intentId: string | null): void {
  if (caller.boundIntentId !== undefined && caller.boundIntentId !== intentId) {
    throw new ApiError('FORBIDDEN', 'this checkout session is for another funding intent');
  }
}

export async function loadIntent(deps: QuotesDeps, caller: QuoteCaller, id: string): Promise<LinkedIntent> {
  checkBound(caller, id);
  const intent = await deps.intents.findById(id);
  if (!intent) throw notFound('funding intent');
  checkOwner(caller, intent, 'funding intent');
  return intent;
}

export async function loadQuote(deps: QuotesDeps, caller: QuoteCaller, id: string): Promise<QuoteRecord> {
  const quote = await deps.quotes.findById(id);
  if (!quote) throw notFound('quote');
  checkOwner(caller, quote, 'quote');
  return quote;
}

export const isoIn = (seconds: number, from = Date.now()) => new Date(from + seconds * 1000).toISOString();
