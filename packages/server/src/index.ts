import type { SandboxLink } from './stellar/sandbox/link.js';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { pino, type Logger } from 'pino';
import { createApp, type AppContext } from './app.js';
import { applyBootstrap, ensureSandboxApplication, readBootstrapFile, type BootstrapFile } from './bootstrap.js';
import { instanceTimeoutMs, ServerInstance } from './cluster/instance.js';
import { lead, type Leadership } from './cluster/leadership.js';
import { ClusterRepo } from './cluster/repo.js';
import { isWildcardHost, listenHost, loadConfig, type Config } from './config.js';
import type { Db } from './db/connection.js';
import type { Sql } from './db/sql.js';
import { openDataStore } from './db/store.js';
import { createAppServer } from './http/node-server.js';
import { RateLimiter } from './http/rate-limit.js';
import type { RouteDef } from './http/route.js';
import { deriveKey } from './lib/crypto.js';
import { isoNow } from './lib/time.js';
import { resolveMasterKey } from './master-key.js';
import type { DepositAccountProvisioner } from './records/deposit-accounts.js';
import { createServices, type Services } from './services.js';
import { loadSpec } from './spec/operations.js';
import { SpecValidator } from './spec/validator.js';
import { startMaintenance } from './workers/maintenance.js';
import { pipelineSettings } from './pipeline/index.js';
import type { WebhookOptions } from './resources/webhooks/index.js';
import { startWebhookDelivery, type WebhookWorker } from './workers/webhook-delivery.js';
import { createOps, Telemetry } from './ops/index.js';

export interface ServerOptions {
  /** environment variables to read configuration from (default process.env) */
  env?: Record<string, string | undefined>;
  /** overrides on top of the environment */
  config?: Partial<Config>;
  /** bootstrap content; overrides FUNDKIT_BOOTSTRAP. null = none (sandbox application on first start) */
  bootstrap?: BootstrapFile | null;
  specPath?: string;
  logger?: Logger;
  /** replaces the deposit-account source (the Stellar layer plugs in here) */
  provisionDepositAccount?: DepositAccountProvisioner;
  extraRoutes?: (services: Services) => RouteDef[];
  /** webhook delivery tunables: tests inject a clock and shorten the timeout */
  webhooks?: Partial<WebhookOptions>;
  /** base URL for links in responses; default http://localhost:<port> */
  publicUrl?: string;
  /**
   * A sandbox network already running (its thread, say) for this server to reach over HTTP,
   * instead of starting its own: several servers share one, as they share testnet. The server
   * never closes it. Sandbox mode only.
   */
  sandbox?: SandboxLink;
}

export interface FundkitServer {
  app: Express;
  /** the SQLite connection (throws on PostgreSQL) */
  readonly db: Db;
  /** the server's data */
  sql: Sql;
  config: Config;
  context: AppContext;
  services: Services;
  logger: Logger;
  /** this server among those sharing its database (server_instances) */
  instanceId: string;
  /** whether this server runs the payment pipeline (one server on a database does) */
  leadsPipeline(): boolean;
  /**
   * listens (port 0 = ephemeral) and starts the background loops; on HOST, else 127.0.0.1 in
   * sandbox mode and every interface otherwise (listenHost). `url` reaches it from this machine.
   */
  listen(port?: number, host?: string): Promise<{ url: string; port: number; host: string }>;
  close(): Promise<void>;
}

async function bootstrap(sql: Sql, services: Services, config: Config, options: ServerOptions, logger: Logger): Promise<void> {
  if (options.bootstrap) return applyBootstrap(sql, services, options.bootstrap);
  if (options.bootstrap === undefined && config.bootstrapPath) return applyBootstrap(sql, services, readBootstrapFile(config.bootstrapPath));
  if (config.dbPath !== ':memory:') await ensureSandboxApplication(sql, services, config.dataDir, logger);
}

/** A start never waits longer than this for the deposit pool; its worker finishes the rest. */
const POOL_FILL_TIMEOUT_MS = 15_000;

/** Builds everything (config, database, services, app) without listening. Throws ConfigError on bad configuration. */
export async function createServer(options: ServerOptions = {}): Promise<FundkitServer> {
  const config: Config = { ...loadConfig(options.env ?? process.env), ...options.config };
  const logger = options.logger ?? pino({ level: config.logLevel, base: { service: 'fundkit-server' } });
  const spec = loadSpec(options.specPath);
  const validator = new SpecValidator(spec);
  validator.compileAll();
  const masterKey = resolveMasterKey(config, logger);
  const store = await openDataStore(config, logger);
  const { sql } = store;
  const cluster = new ClusterRepo(sql);
  const instance = await ServerInstance.start(cluster, instanceTimeoutMs(options.env ?? process.env), logger);
  let baseUrl = options.publicUrl ?? `http://localhost:${config.port}`;
  const telemetry = new Telemetry(logger, config.metrics);
  const services = await createServices({ config, sql, logger, masterKey, publicBaseUrl: () => baseUrl, provisionDepositAccount: options.provisionDepositAccount, webhooks: options.webhooks, sandbox: options.sandbox,
    pipeline: pipelineSettings(options.env ?? process.env), instance, telemetry });
  await services.idempotency.releaseAbandoned(isoNow());
  await bootstrap(sql, services, config, options, logger);
  const linked = await services.fundingIntents.giveOldIntentsLinks();
  if (linked > 0) logger.info({ intents: linked }, 'gave intents made before hosted links had secrets a link that opens (hosted_funding_url)');
  let started = false;
  let leadership: Leadership | null = null;
  const ops = createOps({ config, sql, pipeline: services.pipeline.pipeline, telemetry, started: () => started, leads: () => leadership?.leading() ?? false });
  const context: AppContext = {
    config, logger, spec, validator, services, ops: ops.router, telemetry: config.metrics ? telemetry : null,
    rateLimiter: new RateLimiter(config.rateLimit, cluster),
    checkoutKey: deriveKey(masterKey, 'checkout-session-tokens'),
    extraRoutes: options.extraRoutes,
    publicBaseUrl: () => baseUrl,
  };
  const app = await createApp(context);
  let server: Server | null = null;
  let stopMaintenance: (() => void) | null = null;
  let webhookWorker: WebhookWorker | null = null;

  return {
    app, sql, config, context, services, logger, instanceId: instance.id,
    leadsPipeline: () => leadership?.leading() ?? false,
    get db(): Db {
      if (!store.db) throw new Error('the server runs on PostgreSQL: use `sql`, not the SQLite connection');
      return store.db;
    },
    listen(port = config.port, host = listenHost(config)) {
      return new Promise((resolve, reject) => {
        server = createAppServer(app);
        server.once('error', reject);
        server.listen(port, host, () => {
          server!.off('error', reject);
          const actual = (server!.address() as AddressInfo).port;
          if (!options.publicUrl) baseUrl = `http://localhost:${actual}`;
          const { pipeline } = services.pipeline;
          // one server on the database runs the payment pipeline; the others take over if it stops
          leadership = lead('pipeline', {
            async start() {
              // the sandbox closes a ledger per transaction: its deposit pool is full before the first create
              if (config.stellar === 'sandbox') await pipeline.fillPool(POOL_FILL_TIMEOUT_MS);
              services.workers.start();
            },
            stop: () => services.workers.stop(),
          }, { instance, repo: cluster, logger });
          void leadership.ready.then(async () => {
            stopMaintenance = await startMaintenance(services, logger);
            webhookWorker = startWebhookDelivery(services.webhooks.deliveries, sql, logger, services.webhooks.options);
            started = true;
            resolve({ url: localUrl(host, actual), port: actual, host });
          }).catch(reject);
        });
      });
    },
    async close() {
      // /readyz answers 503 from now on: a load balancer stops sending new requests
      started = false;
      stopMaintenance?.();
      // attempts in flight give their claims back before the database closes
      await webhookWorker?.stop();
      // the pipeline stops and its lease is free for another server at once
      if (leadership) await leadership.stop();
      else await services.workers.stop();
      if (server) {
        // open status streams end (checkouts reconnect, to another server behind a load
        // balancer); they would keep server.close waiting for their payers to leave
        services.checkout.closeStatusStreams();
        server.closeIdleConnections?.();
        await new Promise<void>((resolve) => server!.close(() => resolve()));
      }
      // after the requests in flight: a POST /transactions waiting for its close gets its answer
      await services.pipeline.pipeline.stellar?.sandbox?.close();
      await services.pipeline.pipeline.deposits?.close?.();
      // the request logs still buffered (at most REQUEST_LOG_FLUSH_MS of them)
      await services.requestLogs.flush();
      await instance.close();
      await store.close();
      telemetry.close();
    },
  };
}

/** A URL that reaches a server listening on `host` from this machine. */
function localUrl(host: string, port: number): string {
  if (isWildcardHost(host) || host === '127.0.0.1' || host === 'localhost') return `http://127.0.0.1:${port}`;
  return host.includes(':') ? `http://[${host.replace(/^\[|\]$/g, '')}]:${port}` : `http://${host}:${port}`;
}

/** createServer + listen on config.port. */
export async function startServer(options: ServerOptions = {}): Promise<FundkitServer & { url: string }> {
  const server = await createServer(options);
  const { url } = await server.listen();
  return Object.assign(server, { url });
}

export { ConfigError, isWildcardHost, listenHost, loadConfig, type Config } from './config.js';
export type { BootstrapFile } from './bootstrap.js';
export type { DepositAccountProvisioner } from './records/deposit-accounts.js';
export type { RouteDef } from './http/route.js';
export type { Services } from './services.js';
