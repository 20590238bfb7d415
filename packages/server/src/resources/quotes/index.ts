/**
 * Wires quotes and route executions onto the payment pipeline: its network, its treasury signer
 * (one sequence number in flight), its deposit keys and state machine, and one more worker loop.
 */
import type { Environment } from '../../domain/environment.js';
import type { Pipeline } from '../../pipeline/index.js';
import type { StellarNetwork } from '../../stellar/index.js';
import type { AssetsService } from '../assets/service.js';
import { ConversionGate } from '../route-executions/abandon.js';
import type { ExecutionsRepo } from '../../records/route-executions.js';
import { RouteRunner } from '../route-executions/runner.js';
import { RouteExecutionsService } from '../route-executions/service.js';
import { ensureTrust } from '../route-executions/trust.js';
import { QuoteIntentsRepo } from '../../records/quote-intent-link.js';
import type { QuotesRepo } from '../../records/quotes.js';
import { lapseLocks } from './lapse.js';
import { QuotesService } from './service.js';
import type { Sql } from '../../db/sql.js';

export interface QuoteSettings {
  ttlSeconds: number;
  slippageBps: number;
}

export interface QuoteServices {
  quotes: QuotesService;
  routeExecutions: RouteExecutionsService;
  executions: ExecutionsRepo;
  /** lets a refund give up a FAILED/PAUSED conversion */
  conversions: ConversionGate;
  /** the route-execution job's logic (workers/route-execution.ts) */
  runner: RouteRunner;
  /** lapses quotes and the locks they hold: the route-execution job's housekeeping */
  lapse: () => Promise<void>;
}

export interface QuoteServiceDeps {
  sql: Sql;
  assets: AssetsService;
  pipeline: Pipeline;
  /** shared with the intent read model */
  executions: ExecutionsRepo;
  quotes: QuotesRepo;
  settings: QuoteSettings;
  /** returns once an intent's deposit account is on chain (bounded; FundingIntentsService.untilPayable) */
  untilPayable: (intentId: string) => Promise<void>;
}

export function createQuoteServices(deps: QuoteServiceDeps): QuoteServices {
  const { sql, assets, pipeline, executions, quotes, settings } = deps;
  const intents = new QuoteIntentsRepo(sql);
  // live keys use pubnet only, test keys the sandbox/testnet only: the wired network serves the environment it matches
  const network = (environment: Environment): StellarNetwork | null => {
    const wired = pipeline.stellar?.network;
    return wired && wired.kind === assets.network(environment) ? wired : null;
  };
  const signer = () => {
    if (!pipeline.signer) throw new Error('no treasury signer: the Stellar network is not wired');
    return pipeline.signer;
  };
  const runner = new RouteRunner({
    sql, executions, quotes, network, signer, depositKeys: () => pipeline.depositKeys,
    transition: (id, to, reason) => pipeline.machine.transition(id, to, reason), onSucceeded: () => pipeline.nudge.settle(),
  });
  const service = new QuotesService({
    sql, quotes, executions, intents, assets, network, ttlSeconds: settings.ttlSeconds, slippageBps: settings.slippageBps,
    ensureTrust: async (intentId, code, environment) => {
      const net = network(environment);
      if (!net || !pipeline.signer) return;
      // a quote accepted while the intent is CREATED: its trustline needs the account on chain first
      await deps.untilPayable(intentId);
      await ensureTrust({ network: net, signer: pipeline.signer, depositKeys: pipeline.depositKeys }, intentId, code);
    },
  });
  const routeExecutions = new RouteExecutionsService({ sql, executions, quotes, intents, nudge: () => pipeline.nudgeJob('route-execution') });
  return { quotes: service, routeExecutions, executions, conversions: new ConversionGate(executions, quotes), runner, lapse: () => lapseLocks(sql, quotes, intents, executions) };
}
