/**
 * This server process, as the other processes on the same database see it: a row it keeps alive
 * with a heartbeat. What the process holds while it works (an idempotency key's running request)
 * names it as owner; once its heartbeat is older than the timeout, the others take that over. A
 * process stopped by SIGKILL or a crash therefore frees what it held within the timeout, and one
 * that starts no longer frees what the others still hold.
 */
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { newId } from '../lib/ids.js';
import { isoNow } from '../lib/time.js';
import type { ClusterRepo } from './repo.js';

/** An instance silent for this long is taken for dead (FUNDKIT_INSTANCE_TIMEOUT_MS). */
export const DEFAULT_INSTANCE_TIMEOUT_MS = 10_000;

export function instanceTimeoutMs(env: Record<string, string | undefined>): number {
  const raw = Number(env.FUNDKIT_INSTANCE_TIMEOUT_MS);
  return Number.isInteger(raw) && raw > 0 ? raw : DEFAULT_INSTANCE_TIMEOUT_MS;
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, as another user's
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class ServerInstance {
  readonly id = newId('server_instance');
  private timer: NodeJS.Timeout | null = null;
  private readonly startedAt: string;

  private constructor(private readonly repo: ClusterRepo, readonly timeoutMs: number, private readonly logger: Logger,
    private readonly now: () => number) {
    this.startedAt = isoNow(this.now());
  }

  /** Registers this process and keeps its heartbeat until `close`. */
  static async start(repo: ClusterRepo, timeoutMs: number, logger: Logger, now: () => number = Date.now): Promise<ServerInstance> {
    const instance = new ServerInstance(repo, timeoutMs, logger, now);
    await instance.forgetDeadNeighbours();
    await instance.register();
    // five beats per timeout: a process is taken for dead only after missing several
    instance.timer = setInterval(() => void instance.beat(), Math.max(1, Math.floor(timeoutMs / 5)));
    instance.timer.unref();
    return instance;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.repo.deregister(this.id);
  }

  private async register(): Promise<void> {
    await this.repo.register({ id: this.id, host: hostname(), pid: process.pid, started_at: this.startedAt, heartbeat_at: isoNow(this.now()) });
  }

  /**
   * Servers of this host whose process no longer exists are dead now, not after the timeout: a
   * server restarted after a crash or SIGKILL takes back at once what its previous process held
   * (the pipeline lease, running requests' keys), as a lone server always did. A pid reused by
   * another process only leaves the row to the timeout. Hosts are told apart by name, which
   * containers and machines have of their own.
   */
  private async forgetDeadNeighbours(): Promise<void> {
    for (const other of await this.repo.onHost(hostname())) {
      if (other.pid !== process.pid && !processExists(Number(other.pid))) await this.repo.deregister(other.id);
    }
  }

  /** Never rejects: a failed beat is logged, and the next one tries again. */
  private async beat(): Promise<void> {
    try {
      const now = this.now();
      if (!(await this.repo.heartbeat(this.id, isoNow(now)))) {
        // silent past the timeout (a stalled event loop): the others may have taken over what it held
        this.logger.warn({ instance: this.id }, 'this server was taken for dead by the others; registering again');
        await this.register();
      }
      await this.repo.forgetSilent(isoNow(now - 6 * this.timeoutMs));
    } catch (error) {
      this.logger.warn({ err: error }, 'server heartbeat failed');
    }
  }
}
