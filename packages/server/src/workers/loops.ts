/**
 * The one place the server's job loops are started: every job is added here, started and stopped
 * together (by the server that leads the pipeline), and nudged by name. Jobs never import it.
 */
import { startWorker, type JobSpec, type LoopOptions, type Worker } from './loop.js';

export class WorkerLoops {
  private readonly jobs: JobSpec<any>[] = [];
  private readonly running: Worker[] = [];

  constructor(private readonly options: LoopOptions) {}

  add(...jobs: JobSpec<any>[]): void {
    this.jobs.push(...jobs);
  }

  /** Wakes the named loop at once (new work); a loop not running yet ignores it. */
  nudge(name: string): void {
    this.running.find((w) => w.name === name)?.nudge();
  }

  start(): void {
    if (this.running.length > 0) return;
    for (const job of this.jobs) this.running.push(startWorker(job, this.options));
  }

  async stop(): Promise<void> {
    // jobs in hand finish first: on a clocked ledger they wait for its next close (the ledger's
    // clock runs on every server, lease or not: see index.ts)
    await Promise.all(this.running.splice(0).map((w) => w.stop()));
  }

  /** Waits until every loop found nothing to do (tests). */
  async drain(): Promise<void> {
    await Promise.all(this.running.map((w) => w.drain()));
  }
}
