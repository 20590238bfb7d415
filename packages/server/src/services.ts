import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Db } from './db/connection.js';
import type { ServerInstance } from './cluster/instance.js';
import { fenceOf } from './cluster/leadership.js';
import { ClusterRepo } from './cluster/repo.js';
import { IdempotencyRepo } from './db/idempotency-repo.js';
import { AccountsRepo } from './resources/accounts/repo.js';
import { AccountsService } from './resources/accounts/service.js';
import { ApplicationsRepo } from './resources/applications/repo.js';
import { ApplicationsService } from './resources/applications/service.js';
import { AssetsRepo } from './resources/assets/repo.js';
import { AssetsService } from './resources/assets/service.js';
import { provisionerSource, type DepositAccountProvisioner } from './resources/funding-intents/deposit-accounts.js';
import { FundingIntentsService } from './resources/funding-intents/service.js';
import { KeysRepo } from './resources/keys/repo.js';
import { KeysService } from './resources/keys/service.js';
import { RequestLogsRepo } from './resources/request-logs/repo.js';
import { RequestLogsService } from './resources/request-logs/service.js';
import { createCheckoutService, type CheckoutService } from './resources/checkout/index.js';
import { createWebhookServices, type WebhookOptions, type WebhookServices } from './resources/webhooks/index.js';
import { deriveKey } from './lib/crypto.js';
import { createPipelineServices, type PipelineServices } from './pipeline/services.js';
import { createPipeline, pipelineSettings, type PipelineSettings } from './pipeline/index.js';
import { createQuoteServices, type QuoteServices } from './resources/quotes/index.js';
import { FundingIntentReadModel } from './resources/funding-intents/read-model.js';
import { PaymentsReadModel } from './resources/payments/read-model.js';
import { QuotesRepo } from './resources/quotes/repo.js';
import { ExecutionsRepo } from './resources/route-executions/repo.js';

/**
 * The service registry handed to route factories and workers. Later issues add their services
 * here (payments, settlements, refunds, ledger, quotes, checkout sessions, webhooks).
 */
export interface Services {
  accounts: AccountsService;
  applications: ApplicationsService;
  keys: KeysService;
  assets: AssetsService;
  fundingIntents: FundingIntentsService;
  requestLogs: RequestLogsService;
  checkout: CheckoutService;
  webhooks: WebhookServices;
  idempotency: IdempotencyRepo;
  /** payments, settlements, ledger, refunds, test helpers and the pipeline behind them */
  pipeline: PipelineServices;
  /** options, quotes and the route executions that convert a source asset */
  quotes: QuoteServices;
}

export interface ServiceDeps {
  config: Config;
  db: Db;
  logger: Logger;
  masterKey: Buffer;
  publicBaseUrl: () => string;
  provisionDepositAccount?: DepositAccountProvisioner;
  /** webhook delivery tunables (clock, timeout, pool size) */
  webhooks?: Partial<WebhookOptions>;
  /** worker intervals of the payment pipeline */
  pipeline?: Partial<PipelineSettings>;
  /** this server process among those sharing the database */
  instance: ServerInstance;
}

/**
 * The composition root: each service is built once, in dependency order, with everything it needs
 * passed to its constructor; nothing is assigned to a service afterwards.
 */
export function createServices(deps: ServiceDeps): Services {
  const { config, db, logger } = deps;
  const assets = new AssetsService(new AssetsRepo(db), config.stellar);
  const pipeline = createPipeline({
    db, config, logger, masterKey: deps.masterKey, publicBaseUrl: deps.publicBaseUrl, settings: { ...pipelineSettings({}), ...deps.pipeline },
    fence: fenceOf(new ClusterRepo(db), 'pipeline', deps.instance),
  });
  const { repos } = pipeline;
  const executions = new ExecutionsRepo(db);
  const quoteRows = new QuotesRepo(db);
  // the read models: a page of payments or intents with all they show, in batched queries
  const paymentViews = new PaymentsReadModel({ intents: repos.fundingIntents, refunds: repos.refunds, remainders: executions });
  const intentViews = new FundingIntentReadModel({
    intents: repos.fundingIntents, settlements: repos.settlements, payments: repos.payments, paymentViews,
    quotes: quoteRows, executions, publicBaseUrl: deps.publicBaseUrl,
  });
  const fundingIntents = new FundingIntentsService({
    db,
    repo: repos.fundingIntents,
    deposits: deps.provisionDepositAccount ? provisionerSource(deps.provisionDepositAccount) : pipeline.deposits,
    secretsKey: deriveKey(deps.masterKey, 'deposit-account-secrets'),
    publicBaseUrl: deps.publicBaseUrl,
    assets,
    views: intentViews,
    machine: pipeline.machine,
  });
  const quotes = createQuoteServices({
    db, assets, pipeline, executions, quotes: quoteRows, settings: { ttlSeconds: config.quoteTtlSeconds, slippageBps: config.quoteSlippageBps },
  });
  const pipelineServices = createPipelineServices({
    db, pipeline, intents: fundingIntents, paymentViews,
    routeRemainder: (intent, payment) => executions.remainderFor(intent.id, payment.id),
    conversions: quotes.conversions,
  });
  return {
    accounts: new AccountsService(new AccountsRepo(db), logger, deps.publicBaseUrl),
    applications: new ApplicationsService(new ApplicationsRepo(db), config.logoDir, deps.publicBaseUrl),
    keys: new KeysService(new KeysRepo(db)),
    assets,
    fundingIntents,
    requestLogs: new RequestLogsService(new RequestLogsRepo(db), (error) => logger.warn({ err: error }, 'could not write request logs')),
    idempotency: new IdempotencyRepo(db, deps.instance),
    checkout: createCheckoutService(deps, fundingIntents),
    webhooks: createWebhookServices(deps, deps.webhooks),
    pipeline: pipelineServices,
    quotes,
  };
}
