/**
 * Work one server at a time must do, held as a lease (migration 022). Every server on the
 * database tries for it at each beat; the holder runs the work, and keeps the lease for as long
 * as its heartbeat is recent. When the holder stops (close: at once; SIGKILL or a crash: once its
 * heartbeat is older than the instance timeout), the next server to try takes it over and starts
 * the work from what the database holds, as a restart of the one server would.
 */
import type { Logger } from 'pino';
import { isoNow } from '../lib/time.js';
import type { ServerInstance } from './instance.js';
import type { ClusterRepo } from './repo.js';

export interface LeadWork {
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface Leadership {
  /** the first attempt, and the work's start if it won */
  ready: Promise<void>;
  leading(): boolean;
  /** stops the work and gives the lease back */
  stop(): Promise<void>;
}

export function lead(name: string, work: LeadWork, deps: { instance: ServerInstance; repo: ClusterRepo; logger: Logger; now?: () => number }): Leadership {
  const { instance, repo, logger } = deps;
  const now = deps.now ?? Date.now;
  let leading = false;
  let stopped = false;
  // attempts run one after another: a start or stop in progress is never overlapped
  let turn = Promise.resolve();

  const attempt = () => {
    turn = turn.then(async () => {
      if (stopped) return;
      const held = await repo.acquireLease(name, instance.id, isoNow(now()), isoNow(now() - instance.timeoutMs));
      if (held && !leading) {
        leading = true;
        logger.info({ lease: name, instance: instance.id }, 'this server took the lease: starting its work');
        await work.start();
      } else if (!held && leading) {
        leading = false;
        logger.warn({ lease: name, instance: instance.id }, 'another server took the lease: stopping its work here');
        await work.stop();
      }
    }).catch((error: unknown) => logger.error({ err: error, lease: name }, 'lease attempt failed'));
    return turn;
  };

  const ready = attempt();
  const timer = setInterval(() => void attempt(), Math.max(1, Math.floor(instance.timeoutMs / 5)));
  timer.unref();
  return {
    ready,
    leading: () => leading,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await turn;
      if (leading) {
        leading = false;
        await work.stop();
      }
      await repo.releaseLease(name, instance.id);
    },
  };
}

/** Work done after another server took the lease over: refused, so it is never done twice. */
export class LeaseLostError extends Error {}

/**
 * A check that `instance` may still do the lease's work: it holds the lease, or nobody does (a
 * server that does not listen runs its pipeline by hand). Run it inside the transaction that
 * records the work: a server that took the lease over reads that record only after taking it.
 */
export function fenceOf(repo: ClusterRepo, name: string, instance: { id: string }): () => Promise<void> {
  return async () => {
    const holder = await repo.leaseHolder(name);
    if (holder !== null && holder !== instance.id) throw new LeaseLostError(`the ${name} lease is held by ${holder}: this server no longer does its work`);
  };
}
