import type { Logger } from 'pino';
import { isoNow } from '../lib/time.js';
import type { Services } from '../services.js';

const INTERVAL_MS = 3_600_000;

/** Purges request logs older than 30 days and idempotency keys older than 24 h and rate-limit counters that ended, hourly. */
export async function startMaintenance(services: Services, logger: Logger): Promise<() => void> {
  const run = async () => {
    try {
      const logs = await services.requestLogs.purgeExpired();
      const keys = await services.idempotency.purgeExpired(isoNow());
      const limits = await services.accounts.purgeExpiredLimits();
      if (logs || keys || limits) logger.info({ request_logs: logs, idempotency_keys: keys, rate_limits: limits }, 'purged expired rows');
    } catch (error) {
      logger.error({ err: error }, 'maintenance failed');
    }
  };
  await run();
  // run never throws (it logs)
  const timer = setInterval(() => void run(), INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
