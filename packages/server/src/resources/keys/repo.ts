import type { Db } from '../../db/connection.js';
import type { ApplicationRecord, Environment } from '../../http/context.js';
import { findApplicationRow } from '../applications/repo.js';
import { KEYSET_WHERE, keysetParams, type PageRequest } from '../../http/pagination.js';

export type KeyType = 'secret' | 'publishable';

export interface ApiKeyRecord {
  id: string;
  application_id: string;
  environment: Environment;
  type: KeyType;
  key_hash: string;
  prefix: string;
  last4: string;
  created_at: string;
  last_used_at: string | null;
  exposed_at: string | null;
  revoked_at: string | null;
}

export class KeysRepo {
  constructor(private readonly db: Db) {}

  insert(key: ApiKeyRecord): void {
    this.db.prepare(`INSERT INTO api_keys (id, application_id, environment, type, key_hash, prefix, last4, created_at, last_used_at, exposed_at, revoked_at)
      VALUES (@id, @application_id, @environment, @type, @key_hash, @prefix, @last4, @created_at, @last_used_at, @exposed_at, @revoked_at)`).run(key);
  }

  findByHash(hash: string): { key: ApiKeyRecord; application: ApplicationRecord } | undefined {
    const key = this.db.prepare('SELECT * FROM api_keys WHERE key_hash = ?').get(hash) as ApiKeyRecord | undefined;
    if (!key) return undefined;
    return { key, application: this.findApplication(key.application_id)! };
  }

  findApplication(id: string): ApplicationRecord | undefined {
    return findApplicationRow(this.db, id);
  }

  findById(id: string): ApiKeyRecord | undefined {
    return this.db.prepare('SELECT * FROM api_keys WHERE id = ?').get(id) as ApiKeyRecord | undefined;
  }

  list(applicationId: string, page: PageRequest): ApiKeyRecord[] {
    const keyset = page.after ? `AND ${KEYSET_WHERE}` : '';
    return this.db.prepare(`SELECT * FROM api_keys WHERE application_id = @applicationId ${keyset} ORDER BY created_at DESC, id DESC LIMIT @limitPlusOne`)
      .all({ applicationId, ...keysetParams(page) }) as ApiKeyRecord[];
  }

  revoke(id: string, at: string): void {
    this.db.prepare('UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?').run(at, id);
  }

  markExposed(id: string, at: string): void {
    this.db.prepare('UPDATE api_keys SET exposed_at = COALESCE(exposed_at, ?) WHERE id = ?').run(at, id);
  }

  touch(id: string, at: string): void {
    this.db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(at, id);
  }
}
