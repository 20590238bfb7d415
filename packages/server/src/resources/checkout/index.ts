import type { Logger } from 'pino';
import { deriveKey } from '../../lib/crypto.js';
import type { FundingIntentsService } from '../funding-intents/service.js';
import { CheckoutRepo } from './repo.js';
import { CheckoutService } from './service.js';
import { StatusFeed } from './status-feed.js';
import type { Sql } from '../../db/sql.js';

export { checkoutRoutes } from './routes.js';
export { hostedCheckoutRouter } from './hosted-page.js';
export type { CheckoutService } from './service.js';

/** Wired from services.ts; the token key is derived exactly as createServer derives the key auth verifies with. */
export function createCheckoutService(
  deps: { sql: Sql; masterKey: Buffer; publicBaseUrl: () => string; logger: Logger },
  fundingIntents: FundingIntentsService,
): CheckoutService {
  const repo = new CheckoutRepo(deps.sql);
  return new CheckoutService({
    repo,
    statusFeed: new StatusFeed({
      markers: (ids) => repo.intentMarkers(ids),
      onError: (error) => deps.logger.warn({ err: error }, 'could not read the intents of open status streams'),
    }),
    fundingIntents,
    checkoutKey: deriveKey(deps.masterKey, 'checkout-session-tokens'),
    publicBaseUrl: deps.publicBaseUrl,
  });
}
