/**
 * The server's jobs, in the order their loops start: expiry always; with a Stellar network the
 * deposit pool, payment confirmation, settlement, refund payout, ledger follower and deposit
 * retirement; then route executions. Each job calls the logic its room owns.
 */
import type { Config } from '../config.js';
import type { Pipeline } from '../pipeline/index.js';
import type { QuoteServices } from '../resources/quotes/index.js';
import { depositPoolJob } from './deposit-pool.js';
import { depositRetireJob } from './deposit-retire.js';
import { expiryJob } from './expiry.js';
import { ledgerFollowerJob } from './ledger-follower.js';
import type { JobSpec } from './loop.js';
import { paymentConfirmationJob } from './payment-confirmation.js';
import { refundPayoutJob } from './refund-payout.js';
import { routeExecutionJob } from './route-execution.js';
import { settlementJob } from './settlement.js';

/** Payments confirmed at once (a database transaction each: the follower read them from closed ledgers). */
const CONFIRMATIONS_IN_FLIGHT = 8;

export function serverJobs(config: Config, pipeline: Pipeline, quotes: QuoteServices): JobSpec<any>[] {
  const jobs: JobSpec<any>[] = [expiryJob(pipeline.expirer)];
  const { pool, confirmer, settler, refundPayer, follower, retirer, repos } = pipeline;
  if (pool && confirmer && settler && refundPayer && follower && retirer) {
    // as many payouts running as the treasury's transactions can carry in one ledger
    const inFlight = config.treasuryChannels * config.treasuryBatchItems;
    jobs.push(depositPoolJob(pool, config.treasuryChannels));
    jobs.push(paymentConfirmationJob(confirmer, CONFIRMATIONS_IN_FLIGHT), settlementJob(settler, repos.intents, repos.settlements, inFlight),
      refundPayoutJob(refundPayer, inFlight), ledgerFollowerJob(follower));
    jobs.push(depositRetireJob(retirer));
  }
  jobs.push(routeExecutionJob(quotes.runner, quotes.executions, quotes.lapse));
  return jobs;
}
