import { ApiClient, type RawClient } from './core/client.js';
import { resolveConfig } from './core/config.js';
import type { ClientOptions, Environment } from './core/options.js';
import { Applications } from './resources/applications.js';
import { Assets } from './resources/assets.js';
import { Auth } from './resources/auth.js';
import { CheckoutSessions } from './resources/checkout-sessions.js';
import { Events } from './resources/events.js';
import { FundingIntents } from './resources/funding-intents.js';
import { Ledger } from './resources/ledger.js';
import { Payments } from './resources/payments.js';
import { Platform } from './resources/platform.js';
import { Quotes } from './resources/quotes.js';
import { Refunds } from './resources/refunds.js';
import { RequestLogs } from './resources/request-logs.js';
import { RouteExecutions } from './resources/route-executions.js';
import { Settlements } from './resources/settlements.js';
import { TestHelpers } from './resources/test-helpers.js';
import { WebhookEndpoints } from './resources/webhook-endpoints.js';

/**
 * The Fundkit API client.
 *
 * ```ts
 * const fk = new Fundkit({ apiKey: process.env.FUNDKIT_API_KEY });
 * const intent = await fk.fundingIntents.create({ amount: '25.00', asset: 'USDC' });
 * ```
 */
export class Fundkit {
  /** `sandbox` or `production`, as configured or inferred from the key. */
  readonly environment: Environment;
  /** The API origin requests go to. */
  readonly baseUrl: string;
  /**
   * The openapi-fetch client over the whole contract (`fk.raw.GET('/v1/assets')`), with the same
   * credentials, retries and timeouts. Escape hatch: it neither throws typed errors nor adds
   * Idempotency-Keys by itself.
   */
  readonly raw: RawClient;

  readonly fundingIntents: FundingIntents;
  readonly quotes: Quotes;
  readonly routeExecutions: RouteExecutions;
  readonly payments: Payments;
  readonly refunds: Refunds;
  readonly settlements: Settlements;
  readonly ledger: Ledger;
  readonly assets: Assets;
  readonly webhookEndpoints: WebhookEndpoints;
  readonly events: Events;
  readonly checkoutSessions: CheckoutSessions;
  readonly applications: Applications;
  readonly auth: Auth;
  readonly platform: Platform;
  readonly requestLogs: RequestLogs;
  /** Sandbox helpers (test keys only): pay, expire, failSettlement. */
  readonly testHelpers: TestHelpers;

  constructor(options: ClientOptions = {}) {
    const config = resolveConfig(options);
    const client = new ApiClient(config);
    this.environment = config.environment;
    this.baseUrl = config.baseUrl;
    this.raw = client.raw;
    this.fundingIntents = new FundingIntents(client);
    this.quotes = new Quotes(client);
    this.routeExecutions = new RouteExecutions(client);
    this.payments = new Payments(client);
    this.refunds = new Refunds(client);
    this.settlements = new Settlements(client);
    this.ledger = new Ledger(client);
    this.assets = new Assets(client);
    this.webhookEndpoints = new WebhookEndpoints(client);
    this.events = new Events(client);
    this.checkoutSessions = new CheckoutSessions(client);
    this.applications = new Applications(client);
    this.auth = new Auth(client);
    this.platform = new Platform(client);
    this.requestLogs = new RequestLogs(client);
    this.testHelpers = new TestHelpers(client);
  }
}
