import { bindAll, dynamic, prepared, sqlOf, type Sql, type SqlSource } from '../../db/sql.js';
import type { Environment } from '../../domain/environment.js';
import { applicationPage, type PageRequest } from '../../domain/page.js';

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

const INSERT = prepared<never, RequestLogRecord>((k, p) => k.insertInto('request_logs').values(bindAll(p, [
  'id', 'application_id', 'environment', 'key_id', 'method', 'path', 'status', 'request_id', 'duration_ms', 'idempotency_key', 'created_at',
])));

const BY_ID = prepared<RequestLogRecord, { id: string }>((k, p) => k.selectFrom('request_logs').selectAll().where('id', '=', p('id')));

const PURGE_BEFORE = prepared<never, { cutoff: string }>((k, p) => k.deleteFrom('request_logs').where('created_at', '<', p('cutoff')));

export class RequestLogsRepo {
  private readonly sql: Sql;

  constructor(db: SqlSource) {
    this.sql = sqlOf(db);
  }

  async insert(log: RequestLogRecord): Promise<void> {
    await this.sql.run(INSERT, log);
  }

  /** Many entries in one transaction (one prepared statement: a flush writes hundreds). */
  async insertMany(logs: RequestLogRecord[]): Promise<void> {
    await this.sql.transaction(async () => {
      for (const l of logs) await this.sql.run(INSERT, l);
    }, { selfLocking: true });
  }

  async findById(id: string): Promise<RequestLogRecord | undefined> {
    return this.sql.get(BY_ID, { id });
  }

  async list(applicationId: string, environment: Environment, filters: RequestLogFilters, page: PageRequest): Promise<RequestLogRecord[]> {
    return this.sql.all(dynamic<RequestLogRecord>((k) => applicationPage(k, 'request_logs', applicationId, environment, page)
      .$if(filters.status !== undefined, (q) => q.where('status', '=', filters.status!))
      .$if(filters.method !== undefined, (q) => q.where('method', '=', filters.method!))));
  }

  async purgeBefore(cutoff: string): Promise<number> {
    return this.sql.run(PURGE_BEFORE, { cutoff });
  }
}
