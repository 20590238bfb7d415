/** The warm pool of deposit accounts and the batches that create them (migration 014). */
import type { Db } from '../db/connection.js';

export interface PoolAccount {
  id: number;
  network: string;
  environment: string;
  asset: string;
  address: string;
  secret_encrypted: string;
  batch_id: string;
  transaction_hash: string | null;
  created_at: string;
  activated_at: string | null;
  claimed_at: string | null;
}

export interface DepositBatch {
  id: string;
  network: string;
  environment: string;
  status: 'PENDING' | 'APPLIED' | 'FAILED';
  envelope_xdr: string | null;
  transaction_hash: string | null;
  failure_code: string | null;
  attempts: number;
  next_attempt_at: string;
  created_at: string;
  updated_at: string;
  /** the key its accounts are created with as co-signer (the treasury) */
  cosigner?: string | null;
}

/** One account a batch creates: a pool row or the PROVISIONING deposit account of a waiting intent. */
export interface BatchMember {
  kind: 'pool' | 'intent';
  address: string;
  asset: string;
  secret_encrypted: string;
}

export interface WaitingAccount {
  id: string;
  address: string;
  asset: string;
  secret_encrypted: string;
}

export class DepositPoolRepo {
  constructor(private readonly db: Db) {}

  /**
   * Takes one ready account, at most once: a single UPDATE … RETURNING, run inside the create's
   * transaction, so two creates can never get the same row.
   */
  claim(network: string, environment: string, asset: string, at: string): PoolAccount | undefined {
    return this.db.prepare(`UPDATE deposit_pool SET claimed_at = @at WHERE id = (SELECT id FROM deposit_pool
      WHERE network = @network AND environment = @environment AND asset = @asset AND claimed_at IS NULL AND activated_at IS NOT NULL
      ORDER BY id LIMIT 1) AND claimed_at IS NULL RETURNING *`).get({ network, environment, asset, at }) as PoolAccount | undefined;
  }

  /**
   * Unclaimed accounts per asset, ready or still in a pending batch (both count toward the target).
   * One count per asset, each a range of the ready index (claimed rows, which only grow, are not read).
   */
  unclaimed(network: string, environment: string, assets: string[]): Map<string, number> {
    const count = this.db.prepare('SELECT COUNT(*) FROM deposit_pool WHERE network = ? AND environment = ? AND asset = ? AND claimed_at IS NULL').pluck();
    return new Map(assets.map((asset) => [asset, count.get(network, environment, asset) as number]));
  }

  ready(network: string, environment: string, asset: string): number {
    return this.db.prepare(`SELECT COUNT(*) FROM deposit_pool WHERE network = ? AND environment = ? AND asset = ? AND claimed_at IS NULL
      AND activated_at IS NOT NULL`).pluck().get(network, environment, asset) as number;
  }

  /**
   * PROVISIONING deposit accounts of intents still CREATED and in no batch, oldest intent first:
   * read in the order of funding_intents_by_status_created, stopping at the limit (migration 018).
   */
  waiting(environment: string, limit: number): WaitingAccount[] {
    return this.db.prepare(`SELECT da.id, da.address, da.asset, da.secret_encrypted FROM funding_intents fi
      JOIN deposit_accounts da ON da.id = fi.deposit_account_id
      WHERE fi.status = 'CREATED' AND da.status = 'PROVISIONING' AND da.provision_batch_id IS NULL AND da.environment = ?
      ORDER BY fi.created_at, fi.id LIMIT ?`).all(environment, limit) as WaitingAccount[];
  }

  insertBatch(batch: DepositBatch): void {
    this.db.prepare(`INSERT INTO deposit_batches (id, network, environment, status, envelope_xdr, transaction_hash, failure_code, attempts, next_attempt_at, created_at, updated_at, cosigner)
      VALUES (@id, @network, @environment, @status, @envelope_xdr, @transaction_hash, @failure_code, @attempts, @next_attempt_at, @created_at, @updated_at, @cosigner)`).run({ cosigner: null, ...batch });
  }

  /** The co-signer a deposit account was created with (its batch's), or null (its own key signs). */
  cosignerOf(depositAccountId: string, address: string): string | null {
    const row = this.db.prepare(`SELECT b.cosigner FROM deposit_batches b WHERE b.id = COALESCE(
      (SELECT provision_batch_id FROM deposit_accounts WHERE id = ?), (SELECT batch_id FROM deposit_pool WHERE address = ?))`)
      .get(depositAccountId, address) as { cosigner: string | null } | undefined;
    return row?.cosigner ?? null;
  }

  insertPoolAccount(row: Omit<PoolAccount, 'id'>): void {
    this.db.prepare(`INSERT INTO deposit_pool (network, environment, asset, address, secret_encrypted, batch_id, transaction_hash, created_at, activated_at, claimed_at)
      VALUES (@network, @environment, @asset, @address, @secret_encrypted, @batch_id, @transaction_hash, @created_at, @activated_at, @claimed_at)`).run(row);
  }

  assignToBatch(depositAccountId: string, batchId: string): void {
    this.db.prepare('UPDATE deposit_accounts SET provision_batch_id = ? WHERE id = ?').run(batchId, depositAccountId);
  }

  /** The next PENDING batch due, other than those in hand. */
  nextPending(network: string, now: string, busy: string[]): DepositBatch | undefined {
    const rows = this.db.prepare(`SELECT * FROM deposit_batches WHERE network = ? AND status = 'PENDING' AND next_attempt_at <= ? ORDER BY created_at, id LIMIT 20`)
      .all(network, now) as DepositBatch[];
    return rows.find((b) => !busy.includes(b.id));
  }

  findBatch(id: string): DepositBatch | undefined {
    return this.db.prepare('SELECT * FROM deposit_batches WHERE id = ?').get(id) as DepositBatch | undefined;
  }

  /** Members in a stable order, so a rebuilt envelope (after tx_bad_seq) carries the same accounts. */
  members(batchId: string): BatchMember[] {
    return this.db.prepare(`SELECT 'intent' AS kind, address, asset, secret_encrypted FROM deposit_accounts WHERE provision_batch_id = @id
      UNION ALL SELECT 'pool' AS kind, address, asset, secret_encrypted FROM deposit_pool WHERE batch_id = @id ORDER BY address`).all({ id: batchId }) as BatchMember[];
  }

  updateBatch(id: string, fields: Partial<Pick<DepositBatch, 'status' | 'envelope_xdr' | 'transaction_hash' | 'failure_code' | 'attempts' | 'next_attempt_at'>>, at: string): void {
    const sets = Object.keys(fields).map((k) => `${k} = @${k}`);
    this.db.prepare(`UPDATE deposit_batches SET ${[...sets, 'updated_at = @at'].join(', ')} WHERE id = @id`).run({ ...fields, id, at });
  }

  /** The batch applied: its pool rows become claimable. */
  activatePool(batchId: string, hash: string, at: string): void {
    this.db.prepare('UPDATE deposit_pool SET transaction_hash = ?, activated_at = ? WHERE batch_id = ?').run(hash, at, batchId);
  }

  /** The intents' deposit accounts the batch created: ACTIVE. Returns their ids. */
  activateAccounts(batchId: string, at: string): { id: string; address: string }[] {
    return this.db.prepare(`UPDATE deposit_accounts SET status = 'ACTIVE', activated_at = ? WHERE provision_batch_id = ? AND status = 'PROVISIONING' RETURNING id, address`)
      .all(at, batchId) as { id: string; address: string }[];
  }

  intentOf(depositAccountId: string): { id: string; status: string } | undefined {
    return this.db.prepare('SELECT id, status FROM funding_intents WHERE deposit_account_id = ?').get(depositAccountId) as { id: string; status: string } | undefined;
  }

  /** The batch failed as a whole (nothing was created): its pool keys are dropped, its intents wait for the next batch. */
  release(batchId: string): void {
    this.db.prepare('DELETE FROM deposit_pool WHERE batch_id = ?').run(batchId);
    this.db.prepare("UPDATE deposit_accounts SET provision_batch_id = NULL WHERE provision_batch_id = ? AND status = 'PROVISIONING'").run(batchId);
  }
}
