import type { LedgerFollower } from '../pipeline/follower.js';
import type { JobSpec } from './loop.js';

/**
 * Runs the ledger follower whenever it is due: at once when the sandbox closes a ledger (a
 * nudge), about one ledger interval after the last close on a real network, later after a
 * failure or a 429.
 */
export function ledgerFollowerJob(follower: LedgerFollower): JobSpec<number> {
  return {
    name: 'ledger-follower',
    claim: () => (follower.due() ? Date.now() : undefined),
    run: () => follower.run(),
    fail: () => undefined,
    attempts: () => 0,
  };
}
