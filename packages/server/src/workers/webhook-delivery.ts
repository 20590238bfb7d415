import { signWebhook } from '@fundkit/webhooks';
import type { Logger } from 'pino';
import type { Db } from '../db/connection.js';
import { onOutboxWrite } from '../db/outbox.js';
import type { Claim } from '../resources/webhooks/deliveries-repo.js';
import type { WebhookDeliveriesService } from '../resources/webhooks/deliveries-service.js';
import type { WebhookOptions } from '../resources/webhooks/index.js';
import { startLoop } from './loop.js';
import { postWebhook } from './webhook-delivery-http.js';

export interface WebhookWorker {
  nudge(): void;
  /** Aborts attempts in flight and gives their claims back, then ends the loop. */
  stop(): Promise<void>;
}

/**
 * Delivers the outbox: each pass fans new events out to their endpoints, claims due deliveries
 * up to the free slots of the pool and starts them without waiting; a finished attempt nudges
 * the loop so its slot is reused at once.
 */
export function startWebhookDelivery(service: WebhookDeliveriesService, db: Db, logger: Logger, options: WebhookOptions): WebhookWorker {
  const inFlight = new Set<Promise<void>>();
  const shutdown = new AbortController();

  async function attempt(claim: Claim): Promise<void> {
    const prepared = service.prepare(claim);
    if (!prepared) return service.drop(claim);
    const startedAt = options.clock();
    const signed = await signWebhook(prepared.body, prepared.secrets, {
      timestamp: Math.floor(startedAt / 1000), id: prepared.eventId, attempt: claim.number,
    });
    const outcome = await postWebhook(prepared.url, signed, { timeoutMs: options.timeoutMs, signal: shutdown.signal });
    if (shutdown.signal.aborted) return service.release(claim);
    service.record(claim, outcome, startedAt);
  }

  function start(claim: Claim): void {
    const running = attempt(claim)
      // a throw leaves the claim leased: it is retried once the lease expires
      .catch((error: unknown) => logger.error({ err: error, delivery_id: claim.delivery.id }, 'webhook attempt failed to run'))
      .finally(() => {
        inFlight.delete(running);
        if (!shutdown.signal.aborted) loop.nudge();
      });
    inFlight.add(running);
  }

  function tick(): number | null {
    while (service.fanOut() > 0 && !shutdown.signal.aborted);
    const free = options.concurrency - inFlight.size;
    for (const claim of service.claim(free, options.leaseMs)) start(claim);
    // a full pool is woken by the attempt that frees a slot
    if (inFlight.size >= options.concurrency) return null;
    return service.msUntilNextDue();
  }

  const loop = startLoop({ name: 'webhook-delivery', logger, pollIntervalMs: options.pollIntervalMs, tick });
  const unsubscribe = onOutboxWrite(db, () => loop.nudge());
  return {
    nudge: () => loop.nudge(),
    async stop() {
      unsubscribe();
      shutdown.abort();
      await loop.stop();
      await Promise.allSettled([...inFlight]);
    },
  };
}
