/**
 * Where a create's deposit account comes from when a network is configured: the warm pool (an
 * account already active on chain, claimed in the create's own transaction), else a fresh
 * keypair left PROVISIONING for the pool worker. Never a chain call inside the request.
 */
import { isoNow } from '../lib/time.js';
import { randomAccount, type DepositAccountSource } from '../records/deposit-accounts.js';
import type { DepositPoolRepo } from './deposit-pool-repo.js';
import type { WatchRepo } from './watch-repo.js';
import { KeyReserve } from '../stellar/key-reserve.js';

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
  /** keys handed out before the rest are made on the key thread (config.keyThreadAfter) */
  keyThreadAfter?: number;
}

export function poolDepositSource(deps: PoolSourceDeps): DepositAccountSource & { keys: KeyReserve } {
  const keys = new KeyReserve(deps.secretsKey, { threadAfter: deps.keyThreadAfter });
  return {
    keys,
    async take(request) {
      if (!deps.serves(request.environment)) return randomAccount();
      const row = await deps.pool.claim(deps.networkName, request.environment, request.asset, isoNow());
      if (!row) {
        const key = keys.take();
        return { address: key.address, sealed: key.sealed, status: 'PROVISIONING' };
      }
      // watched in the same transaction, with the transaction that created it (protocol evidence)
      await deps.watch.add(row.address, deps.networkName, row.transaction_hash);
      // sealed with the same key as deposit_accounts.secret_encrypted (migration 014): stored as it is
      return { address: row.address, sealed: row.secret_encrypted, status: 'ACTIVE' };
    },
    taken(request, account) {
      if (!deps.serves(request.environment)) return;
      if (account.status === 'ACTIVE') deps.watchAddress(account.address);
      deps.nudge();
    },
    close: () => keys.close(),
  };
}
