import { deriveKey } from '../../lib/crypto.js';
import type { FundingIntentsService } from '../funding-intents/service.js';
import { CheckoutRepo } from './repo.js';
import { CheckoutService } from './service.js';
import type { CheckoutLinks } from '../funding-intents/checkout-link.js';
import type { StatusFeed } from '../funding-intents/status-feed.js';
import type { Sql } from '../../db/sql.js';

export { checkoutRoutes } from './routes.js';
export { hostedCheckoutRouter } from './hosted-page.js';
export { checkoutPageLimits, type PageLimits } from './page-limit.js';
export type { CheckoutService } from './service.js';

/** Wired from services.ts; the token key is derived exactly as createServer derives the key auth verifies with. */
export function createCheckoutService(
  deps: { sql: Sql; masterKey: Buffer; publicBaseUrl: () => string },
  fundingIntents: FundingIntentsService,
  /** the process's one feed of intent changes, shared with the waits for a payable intent */
  statusFeed: StatusFeed,
  /** the secrets of hosted checkout links (the ones intents are made with) */
  links: CheckoutLinks,
): CheckoutService {
  return new CheckoutService({
    repo: new CheckoutRepo(deps.sql),
    statusFeed,
    fundingIntents,
    checkoutKey: deriveKey(deps.masterKey, 'checkout-session-tokens'),
    publicBaseUrl: deps.publicBaseUrl,
    links,
  });
}
