import { ApiError, notFound } from '../../http/api-error.js';
import type { Environment } from '../../domain/environment.js';
import { toList } from '../../http/pagination.js';
import type { PageRequest } from '../../domain/page.js';
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

/** Buffered request logs are written together at least this often (and at shutdown, and before any read). */
export const REQUEST_LOG_FLUSH_MS = 50;
const MAX_BUFFERED = 500;

/**
 * Request logs are written off the request's hot path: entries are buffered in memory and
 * inserted in one transaction every REQUEST_LOG_FLUSH_MS, when 500 are waiting, at shutdown
 * (`flush` from close), and before any read of the logs, so a reader always sees every
 * finished request. What a SIGKILL can lose: the entries of the last ≤ 50 ms, never anything
 * else (they are diagnostics; no money, state or event depends on them).
 */
export class RequestLogsService {
  private buffer: RequestLogRecord[] = [];
  private timer: NodeJS.Timeout | null = null;
  /** the writes under way, in order: a read waits for those a flush before it started */
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly repo: RequestLogsRepo, private readonly onError: (error: unknown) => void = () => {}) {}

  /** Never stores the key or the body: only what identifies the request. */
  async record(entry: Omit<RequestLogRecord, 'id' | 'created_at'>): Promise<void> {
    this.buffer.push({ ...entry, id: newId('request_log'), created_at: isoNow() });
    if (this.buffer.length >= MAX_BUFFERED) await this.flush();
    else if (!this.timer) {
      // flush never throws (errors go to onError)
      this.timer = setTimeout(() => void this.flush(), REQUEST_LOG_FLUSH_MS);
      this.timer.unref();
    }
  }

  /** Writes every buffered entry now (one transaction). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.buffer.length > 0) {
      const entries = this.buffer;
      this.buffer = [];
      this.writing = this.writing.then(() => this.repo.insertMany(entries)).catch((error: unknown) => this.onError(error));
    }
    await this.writing;
  }

  async list(applicationId: string, environment: Environment, filters: RequestLogFilters, page: PageRequest) {
    await this.flush();
    return toList(await this.repo.list(applicationId, environment, filters, page), page, presentRequestLog);
  }

  async get(applicationId: string, environment: Environment, id: string) {
    await this.flush();
    const log = await this.repo.findById(id);
    if (!log || log.application_id !== applicationId) throw notFound('request log');
    if (log.environment !== environment) throw new ApiError('FORBIDDEN', `this request log belongs to the ${log.environment} environment; use a ${log.environment} key`);
    return presentRequestLog(log);
  }

  async purgeExpired(now = Date.now()): Promise<number> {
    await this.flush();
    return this.repo.purgeBefore(isoNow(now - REQUEST_LOG_RETENTION_MS));
  }
}
