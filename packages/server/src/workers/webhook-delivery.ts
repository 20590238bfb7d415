// node:crypto HMAC, synchronous: microseconds, where Web Crypto's first call costs a few hundred ms
import { signWebhookSync } from '@fundkit/webhooks/node';
import type { Logger } from 'pino';
import { onOutboxWrite } from '../db/outbox.js';
import type { Claim } from '../resources/webhooks/deliveries-repo.js';
import type { WebhookDeliveriesService } from '../resources/webhooks/deliveries-service.js';
import type { WebhookOptions } from '../resources/webhooks/index.js';
import { startWorker } from './loop.js';
import { postWebhook } from './webhook-delivery-http.js';
import type { Sql } from '../db/sql.js';

export interface WebhookWorker {
  nudge(): void;
  /** Aborts attempts in flight and gives their claims back, then ends the loop. */
  stop(): Promise<void>;
}

/**
 * Delivers the outbox on the shared worker loop: each claim fans new events out to their
 * endpoints, then claims due deliveries up to the free slots of the pool and starts them without
 * waiting; a finished attempt nudges the loop so its slot is reused at once.
 */
export function startWebhookDelivery(service: WebhookDeliveriesService, sql: Sql, logger: Logger, options: WebhookOptions): WebhookWorker {
  const inFlight = new Set<Promise<void>>();
  const shutdown = new AbortController();
  let dueTimer: NodeJS.Timeout | undefined;

  async function attempt(claim: Claim): Promise<void> {
    const prepared = await service.prepare(claim);
    if (!prepared) return service.drop(claim);
    const startedAt = options.clock();
    const signed = signWebhookSync(prepared.body, prepared.secrets, {
      timestamp: Math.floor(startedAt / 1000), id: prepared.eventId, attempt: claim.number,
    });
    const outcome = await postWebhook(prepared.url, signed, { timeoutMs: options.timeoutMs, signal: shutdown.signal, target: prepared.target });
    if (shutdown.signal.aborted) return service.release(claim);
    await service.record(claim, outcome, startedAt);
  }

  function start(claim: Claim): void {
    const running = attempt(claim)
      // a throw leaves the claim leased: it is retried once the lease expires
      .catch((error: unknown) => logger.error({ err: error, delivery_id: claim.delivery.id }, 'webhook attempt failed to run'))
      .finally(() => {
        inFlight.delete(running);
        if (!shutdown.signal.aborted) worker.nudge();
      });
    inFlight.add(running);
  }

  /** The loop polls at pollIntervalMs; a retry due sooner than that wakes it on time. */
  async function wakeWhenDue(): Promise<void> {
    clearTimeout(dueTimer);
    const ms = inFlight.size < options.concurrency ? await service.msUntilNextDue() : null;
    // due now yet not claimed: its endpoint or application holds its whole share, and the attempt
    // that frees a slot nudges the loop (waking at once would poll the database in a tight loop)
    if (ms !== null && ms > 0 && ms < options.pollIntervalMs) dueTimer = setTimeout(() => worker.nudge(), ms).unref();
  }

  /** One "job" is a batch: every new event fanned out, then as many due deliveries as free slots. */
  async function claim(): Promise<Claim[] | undefined> {
    if (shutdown.signal.aborted) return undefined;
    while (await service.fanOut() > 0);
    const claims = await service.claim(options.concurrency - inFlight.size, options.leaseMs);
    if (claims.length > 0) return claims;
    // a full pool is woken by the attempt that frees a slot
    await wakeWhenDue();
    return undefined;
  }

  const worker = startWorker<Claim[]>({
    name: 'webhook-delivery',
    claim,
    // starts the attempts without waiting: the pool, not the loop, bounds the work in flight
    run: async (claims) => claims.forEach(start),
    // run never throws (attempts record their own failures), so there is nothing to back off
    fail: () => {},
    attempts: () => 0,
  }, { intervalMs: options.pollIntervalMs, logger });
  const unsubscribe = onOutboxWrite(sql, () => worker.nudge());
  return {
    nudge: () => worker.nudge(),
    async stop() {
      unsubscribe();
      clearTimeout(dueTimer);
      shutdown.abort();
      await worker.stop();
      await Promise.allSettled([...inFlight]);
      await service.closeConnections();
    },
  };
}
