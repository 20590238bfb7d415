/**
 * Where a create's deposit account comes from when a network is configured: the warm pool (an
 * account already active on chain, claimed in the create's own transaction), else a fresh
 * keypair left PROVISIONING for the pool worker. Never a chain call inside the request.
 */
import { decryptSecret } from '../lib/crypto.js';
import { isoNow } from '../lib/time.js';
import { randomAccount, type DepositAccountSource } from '../resources/funding-intents/deposit-accounts.js';
import type { DepositPoolRepo } from './deposit-pool-repo.js';
import type { WatchRepo } from './watch-repo.js';
import { KeyReserve } from '../stellar/keypair.js';

export interface PoolSourceDeps {
  pool: DepositPoolRepo;
  watch: WatchRepo;
  networkName: string;
  secretsKey: Buffer;
  /** environments this network serves; others get an active random keypair (no ledger behind them) */
  serves: (environment: string) => boolean;
  /** after the commit: the observer follows a claimed account */
  watchAddress: (address: string) => void;
  /** a PROVISIONING account, or a pool one fewer: wake the pool worker */
  nudge: () => void;
}

export function poolDepositSource(deps: PoolSourceDeps): DepositAccountSource {
  const keys = new KeyReserve();
  return {
    async take(request) {
      if (!deps.serves(request.environment)) return randomAccount();
      const row = await deps.pool.claim(deps.networkName, request.environment, request.asset, isoNow());
      if (!row) {
        const keypair = keys.take();
        return { address: keypair.publicKey(), secret: keypair.secret(), status: 'PROVISIONING' };
      }
      // watched in the same transaction, with the transaction that created it (protocol evidence)
      await deps.watch.add(row.address, deps.networkName, row.transaction_hash);
      return { address: row.address, secret: decryptSecret(deps.secretsKey, row.secret_encrypted), status: 'ACTIVE' };
    },
    taken(request, account) {
      if (!deps.serves(request.environment)) return;
      if (account.status === 'ACTIVE') deps.watchAddress(account.address);
      deps.nudge();
    },
  };
}
