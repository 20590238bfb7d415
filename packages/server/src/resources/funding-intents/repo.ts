import type { Db } from '../../db/connection.js';
import type { Environment } from '../../http/context.js';
import { KEYSET_WHERE, keysetParams, type PageRequest } from '../../http/pagination.js';
import type { FundingIntentStatus } from './transitions.js';

export interface FundingIntentRecord {
  id: string;
  application_id: string;
  environment: Environment;
  status: FundingIntentStatus;
  requirement_amount: bigint;
  requirement_asset: string;
  destination_network: string;
  destination_asset: string;
  destination_address: string;
  received_amount: bigint;
  reference: string | null;
  metadata: string;
  deposit_account_id: string | null;
  expires_at: string;
  created_at: string;
  updated_at: string;
}

export interface DepositAccountRecord {
  id: string;
  application_id: string;
  environment: Environment;
  network: string;
  stellar_network: string;
  address: string;
  asset: string;
  secret_encrypted: string;
  status: string;
  created_at: string;
  activated_at: string | null;
  retired_at: string | null;
}

export interface IntentFilters {
  status?: FundingIntentStatus;
  reference?: string;
}

export class FundingIntentsRepo {
  constructor(private readonly db: Db) {}

  insertDepositAccount(account: DepositAccountRecord): void {
    this.db.prepare(`INSERT INTO deposit_accounts (id, application_id, environment, network, stellar_network, address, asset, secret_encrypted, status, created_at, activated_at, retired_at)
      VALUES (@id, @application_id, @environment, @network, @stellar_network, @address, @asset, @secret_encrypted, @status, @created_at, @activated_at, @retired_at)`).run(account);
  }

  findDepositAccount(id: string): DepositAccountRecord | undefined {
    return this.db.prepare('SELECT * FROM deposit_accounts WHERE id = ?').get(id) as DepositAccountRecord | undefined;
  }

  /** The deposit accounts of a page, in one query. */
  depositAccounts(ids: string[]): Map<string, DepositAccountRecord> {
    // distinct ids: SQLite looks each json_each value up again (an account is shared by a whole page in the bench seed)
    const rows = this.db.prepare('SELECT * FROM deposit_accounts WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify([...new Set(ids)])) as DepositAccountRecord[];
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** The provisioning transaction of each watched address (the protocol record's registration), in one query. */
  registrations(addresses: string[]): Map<string, string | null> {
    const rows = this.db.prepare('SELECT address, provision_tx_hash FROM deposit_watch WHERE address IN (SELECT value FROM json_each(?))')
      .all(JSON.stringify([...new Set(addresses)])) as { address: string; provision_tx_hash: string | null }[];
    return new Map(rows.map((r) => [r.address, r.provision_tx_hash]));
  }

  /** Intents by id, in one query (amounts as BigInt). */
  findByIds(ids: string[]): Map<string, FundingIntentRecord> {
    const rows = this.db.prepare('SELECT * FROM funding_intents WHERE id IN (SELECT value FROM json_each(?))').safeIntegers(true).all(JSON.stringify([...new Set(ids)])) as FundingIntentRecord[];
    return new Map(rows.map((r) => [r.id, r]));
  }

  insert(intent: FundingIntentRecord): void {
    this.db.prepare(`INSERT INTO funding_intents (id, application_id, environment, status, requirement_amount, requirement_asset, destination_network, destination_asset,
      destination_address, received_amount, reference, metadata, deposit_account_id, expires_at, created_at, updated_at)
      VALUES (@id, @application_id, @environment, @status, @requirement_amount, @requirement_asset, @destination_network, @destination_asset,
      @destination_address, @received_amount, @reference, @metadata, @deposit_account_id, @expires_at, @created_at, @updated_at)`).run(intent);
  }

  /** Amounts come back as BigInt (safeIntegers): stroops can exceed 2^53. */
  findById(id: string): FundingIntentRecord | undefined {
    return this.db.prepare('SELECT * FROM funding_intents WHERE id = ?').safeIntegers(true).get(id) as FundingIntentRecord | undefined;
  }

  list(applicationId: string, environment: Environment, filters: IntentFilters, page: PageRequest): FundingIntentRecord[] {
    const where = ['application_id = @applicationId', 'environment = @environment'];
    if (filters.status) where.push('status = @status');
    if (filters.reference !== undefined) where.push('reference = @reference');
    if (page.after) where.push(KEYSET_WHERE);
    return this.db.prepare(`SELECT * FROM funding_intents WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT @limitPlusOne`)
      .safeIntegers(true)
      .all({ applicationId, environment, status: filters.status ?? null, reference: filters.reference ?? null, ...keysetParams(page) }) as FundingIntentRecord[];
  }

  setStatus(id: string, status: FundingIntentStatus, at: string): void {
    this.db.prepare('UPDATE funding_intents SET status = ?, updated_at = ? WHERE id = ?').run(status, at, id);
  }

  insertHistory(intentId: string, from: FundingIntentStatus | null, to: FundingIntentStatus, reason: string | null, at: string): void {
    this.db.prepare('INSERT INTO funding_intent_status_history (funding_intent_id, from_status, to_status, reason, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(intentId, from, to, reason, at);
  }

  history(intentId: string): { from_status: string | null; to_status: string; reason: string | null; created_at: string }[] {
    return this.db.prepare('SELECT from_status, to_status, reason, created_at FROM funding_intent_status_history WHERE funding_intent_id = ? ORDER BY id').all(intentId) as never;
  }
}
