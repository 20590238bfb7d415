import type { Db } from '../../db/connection.js';
import type { Environment } from '../../http/context.js';
import { KEYSET_WHERE, keysetParams, type PageRequest } from '../../http/pagination.js';

export interface RequestLogRecord {
  id: string;
  application_id: string;
  environment: Environment;
  key_id: string;
  method: string;
  path: string;
  status: number;
  request_id: string;
  duration_ms: number;
  idempotency_key: string | null;
  created_at: string;
}

export interface RequestLogFilters {
  status?: number;
  method?: string;
}

export class RequestLogsRepo {
  constructor(private readonly db: Db) {}

  insert(log: RequestLogRecord): void {
    this.db.prepare(`INSERT INTO request_logs (id, application_id, environment, key_id, method, path, status, request_id, duration_ms, idempotency_key, created_at)
      VALUES (@id, @application_id, @environment, @key_id, @method, @path, @status, @request_id, @duration_ms, @idempotency_key, @created_at)`).run(log);
  }

  /** Many entries in one transaction (one statement, positional values: a flush writes hundreds). */
  insertMany(logs: RequestLogRecord[]): void {
    const insert = this.db.prepare(`INSERT INTO request_logs (id, application_id, environment, key_id, method, path, status, request_id, duration_ms, idempotency_key, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.db.transaction(() => {
      for (const l of logs) insert.run(l.id, l.application_id, l.environment, l.key_id, l.method, l.path, l.status, l.request_id, l.duration_ms, l.idempotency_key, l.created_at);
    })();
  }

  findById(id: string): RequestLogRecord | undefined {
    return this.db.prepare('SELECT * FROM request_logs WHERE id = ?').get(id) as RequestLogRecord | undefined;
  }

  list(applicationId: string, environment: Environment, filters: RequestLogFilters, page: PageRequest): RequestLogRecord[] {
    const where = ['application_id = @applicationId', 'environment = @environment'];
    if (filters.status !== undefined) where.push('status = @status');
    if (filters.method !== undefined) where.push('method = @method');
    if (page.after) where.push(KEYSET_WHERE);
    return this.db.prepare(`SELECT * FROM request_logs WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT @limitPlusOne`)
      .all({ applicationId, environment, status: filters.status ?? null, method: filters.method ?? null, ...keysetParams(page) }) as RequestLogRecord[];
  }

  purgeBefore(cutoff: string): number {
    return this.db.prepare('DELETE FROM request_logs WHERE created_at < ?').run(cutoff).changes;
  }
}
