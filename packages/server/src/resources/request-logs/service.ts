import { ApiError, notFound } from '../../http/api-error.js';
import type { Environment } from '../../http/context.js';
import { toList, type PageRequest } from '../../http/pagination.js';
import { newId } from '../../lib/ids.js';
import { isoNow } from '../../lib/time.js';
import type { RequestLogFilters, RequestLogRecord, RequestLogsRepo } from './repo.js';

export const REQUEST_LOG_RETENTION_MS = 30 * 86_400_000;

export function presentRequestLog(log: RequestLogRecord) {
  return {
    id: log.id,
    object: 'request_log' as const,
    request_id: log.request_id,
    method: log.method,
    path: log.path,
    status: log.status,
    api_key_id: log.key_id,
    duration_ms: log.duration_ms,
    idempotency_key: log.idempotency_key,
    livemode: log.environment === 'live',
    created_at: log.created_at,
  };
}

export class RequestLogsService {
  constructor(private readonly repo: RequestLogsRepo) {}

  /** Never stores the key or the body: only what identifies the request. */
  record(entry: Omit<RequestLogRecord, 'id' | 'created_at'>): void {
    this.repo.insert({ ...entry, id: newId('request_log'), created_at: isoNow() });
  }

  list(applicationId: string, environment: Environment, filters: RequestLogFilters, page: PageRequest) {
    return toList(this.repo.list(applicationId, environment, filters, page), page, presentRequestLog);
  }

  get(applicationId: string, environment: Environment, id: string) {
    const log = this.repo.findById(id);
    if (!log || log.application_id !== applicationId) throw notFound('request log');
    if (log.environment !== environment) throw new ApiError('FORBIDDEN', `this request log belongs to the ${log.environment} environment; use a ${log.environment} key`);
    return presentRequestLog(log);
  }

  purgeExpired(now = Date.now()): number {
    return this.repo.purgeBefore(isoNow(now - REQUEST_LOG_RETENTION_MS));
  }
}
