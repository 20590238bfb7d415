import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { ServerInstance } from './cluster/instance.js';
import { fenceOf } from './cluster/leadership.js';
import { ClusterRepo } from './cluster/repo.js';
import { IdempotencyRepo } from './db/idempotency-repo.js';
import { IdempotencyService } from './resources/idempotency-keys/service.js';
import { AccountsRepo } from './resources/accounts/repo.js';
import { AccountsService } from './resources/accounts/service.js';
import { HashSlots } from './resources/accounts/hash-slots.js';
import { LimitStore } from './db/limit-store.js';
import { APPLICATION_RATE_FACTOR } from './http/rate-limit.js';
import { AuthLimits } from './resources/accounts/limits.js';
import { ApplicationsRepo } from './resources/applications/repo.js';
import { ApplicationsService } from './resources/applications/service.js';
import { AssetsRepo } from './resources/assets/repo.js';
import { AssetsService } from './resources/assets/service.js';
import { provisionerSource, type DepositAccountProvisioner } from './records/deposit-accounts.js';
import { FundingIntentsService } from './resources/funding-intents/service.js';
import { PayableWait } from './resources/funding-intents/payable-wait.js';
import { StatusFeed } from './resources/funding-intents/status-feed.js';
import { KeysRepo } from './resources/keys/repo.js';
import { KeysService } from './resources/keys/service.js';
import { RequestLogsRepo } from './resources/request-logs/repo.js';
import { RequestLogsService } from './resources/request-logs/service.js';
import { checkoutPageLimits, createCheckoutService, type CheckoutService, type PageLimits } from './resources/checkout/index.js';
import { CheckoutLinks } from './resources/funding-intents/checkout-link.js';
import { createWebhookServices, type WebhookOptions, type WebhookServices } from './resources/webhooks/index.js';
import { deriveKey } from './lib/crypto.js';
import { createPipelineServices, type PipelineServices } from './pipeline-services.js';
import { createPipeline, pipelineSettings, type PipelineSettings } from './pipeline/index.js';
import { createQuoteServices, type QuoteServices } from './resources/quotes/index.js';
import { serverJobs } from './workers/jobs.js';
import { WorkerLoops } from './workers/loops.js';
import { FundingIntentReadModel } from './resources/funding-intents/read-model.js';
import { PaymentsReadModel } from './resources/payments/read-model.js';
import { QuotesRepo } from './records/quotes.js';
import { ExecutionsRepo } from './records/route-executions.js';
import type { Sql } from './db/sql.js';
import { meteredNetwork } from './ops/network-meter.js';
import type { Telemetry } from './ops/telemetry.js';
import type { SandboxLink } from './stellar/sandbox/link.js';

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
  /** hosted checkout page loads per client, counted in the database */
  checkoutPages: PageLimits;
  webhooks: WebhookServices;
  idempotency: IdempotencyService;
  /** payments, settlements, ledger, refunds, test helpers and the pipeline behind them */
  pipeline: PipelineServices;
  /** options, quotes and the route executions that convert a source asset */
  quotes: QuoteServices;
  /** the job loops of the pipeline and the route executions, started by the server that leads the pipeline */
  workers: WorkerLoops;
}

export interface ServiceDeps {
  config: Config;
  /** the server's data, on either engine */
  sql: Sql;
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
  /** metrics and notable-event logs (ops/telemetry.ts) */
  telemetry: Telemetry;
  /** a sandbox network to share instead of starting one (ServerOptions.sandbox) */
  sandbox?: SandboxLink;
}

/** Stellar testnet and pubnet close a ledger about every 5 s. */
const NETWORK_LEDGER_SECONDS = 5;

/**
 * The composition root: each service is built once, in dependency order, with everything it needs
 * passed to its constructor; nothing is assigned to a service afterwards.
 */
export async function createServices(deps: ServiceDeps): Promise<Services> {
  const { config, sql, logger } = deps;
  const assets = new AssetsService(new AssetsRepo(sql), config.stellar, config.network);
  const settings = { ...pipelineSettings({}), ...deps.pipeline };
  const workers = new WorkerLoops({ intervalMs: settings.workerIntervalMs, backoffBaseMs: settings.backoffBaseMs, logger });
  const pipeline = await createPipeline({
    sql, config, logger, masterKey: deps.masterKey, publicBaseUrl: deps.publicBaseUrl, settings,
    fence: fenceOf(new ClusterRepo(sql), 'pipeline', deps.instance), telemetry: deps.telemetry, ...(deps.sandbox ? { sandbox: deps.sandbox } : {}),
    // every request to the network is counted
    meterNetwork: (network) => meteredNetwork(network, deps.telemetry),
    nudgeJob: (name) => workers.nudge(name),
  });
  const { repos } = pipeline;
  const executions = new ExecutionsRepo(sql);
  const quoteRows = new QuotesRepo(sql);
  // the read models: a page of payments or intents with all they show, in batched queries
  const paymentViews = new PaymentsReadModel({ intents: repos.fundingIntents, refunds: repos.refunds, remainders: executions });
  const checkoutLinks = new CheckoutLinks(deriveKey(deps.masterKey, 'checkout-link-secrets'));
  const intentViews = new FundingIntentReadModel({
    intents: repos.fundingIntents, settlements: repos.settlements, payments: repos.payments, paymentViews,
    quotes: quoteRows, executions, publicBaseUrl: deps.publicBaseUrl, checkoutLinks,
  });
  // one feed of intent changes a process: open checkouts and waits for a payable intent
  const statusFeed = new StatusFeed({
    markers: (ids) => repos.fundingIntents.markers(ids),
    onError: (error) => logger.warn({ err: error }, 'could not read the followed intents (status streams, waits for a deposit account)'),
  });
  const payable = new PayableWait({
    feed: statusFeed,
    status: async (id) => (await repos.fundingIntents.findById(id))?.status,
    ledgerSeconds: config.stellar === 'sandbox' ? config.sandboxLedgerSeconds : NETWORK_LEDGER_SECONDS,
    ...(config.payableWaitMs !== undefined ? { boundMs: config.payableWaitMs } : {}),
  });
  const fundingIntents = new FundingIntentsService({
    sql,
    repo: repos.fundingIntents,
    deposits: deps.provisionDepositAccount ? provisionerSource(deps.provisionDepositAccount) : pipeline.deposits,
    secretsKey: deriveKey(deps.masterKey, 'deposit-account-secrets'),
    publicBaseUrl: deps.publicBaseUrl,
    checkoutLinks,
    assets,
    views: intentViews,
    machine: pipeline.machine,
    payable,
    maxOpenIntents: config.maxOpenIntents,
    applicationRate: { ratePerSecond: config.rateLimit.ratePerSecond * APPLICATION_RATE_FACTOR, burst: config.rateLimit.burst * APPLICATION_RATE_FACTOR },
    collections: pipeline.collections,
  });
  const quotes = createQuoteServices({
    sql, assets, pipeline, executions, quotes: quoteRows, settings: { ttlSeconds: config.quoteTtlSeconds, slippageBps: config.quoteSlippageBps },
    untilPayable: (id) => fundingIntents.untilPayable(id),
  });
  const pipelineServices = createPipelineServices({
    sql, pipeline, intents: fundingIntents, paymentViews,
    routeRemainder: (intent, payment) => executions.remainderFor(intent.id, payment.id),
    conversions: quotes.conversions,
  });
  workers.add(...serverJobs(config, pipeline, quotes));
  // the counters of the limits that hold across servers (rate-limiter-flexible, table rate_limits)
  const limits = new LimitStore(sql);
  return {
    accounts: new AccountsService(new AccountsRepo(sql), logger, deps.publicBaseUrl, config.stellar === 'sandbox',
      new AuthLimits(limits, config.authLimits), new HashSlots(config.passwordHashes.concurrency, config.passwordHashes.queue)),
    applications: new ApplicationsService(new ApplicationsRepo(sql), config.logoDir, deps.publicBaseUrl),
    keys: new KeysService(new KeysRepo(sql)),
    assets,
    fundingIntents,
    requestLogs: new RequestLogsService(new RequestLogsRepo(sql), (error) => logger.warn({ err: error }, 'could not write request logs')),
    idempotency: new IdempotencyService(new IdempotencyRepo(sql, deps.instance, deriveKey(deps.masterKey, 'idempotency-replies'))),
    checkout: createCheckoutService(deps, fundingIntents, statusFeed, checkoutLinks),
    checkoutPages: checkoutPageLimits(limits, config.checkoutPagesPerMinute),
    webhooks: createWebhookServices(deps, deps.webhooks),
    pipeline: pipelineServices,
    quotes,
    workers,
  };
}
