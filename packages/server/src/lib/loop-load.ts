/**
 * Whether requests keep this process's event loop saturated: work that can wait (deposit accounts
 * planned ahead of the payers who need them) then yields to them. The measure is Node's event-loop
 * utilization (the share of time the loop was not waiting for I/O) since the last look, taken at
 * most every WINDOW_MS, so a look costs a clock read.
 */
import { performance, type EventLoopUtilization } from 'node:perf_hooks';

/** The shortest span a look measures: shorter ones say more about the last task than the load. */
const WINDOW_MS = 100;
/** Above this share of busy time, the loop has no gap left for work that can wait. */
const SATURATED = 0.9;

export class LoopLoad {
  private mark: EventLoopUtilization = performance.eventLoopUtilization();
  private markedAt = performance.now();
  private utilization = 0;

  constructor(private readonly threshold = SATURATED) {}

  /** The loop was busy more than the threshold since the last look (or the one before, if that was under WINDOW_MS ago). */
  saturated(): boolean {
    const now = performance.now();
    if (now - this.markedAt >= WINDOW_MS) {
      const mark = performance.eventLoopUtilization();
      this.utilization = performance.eventLoopUtilization(mark, this.mark).utilization;
      this.mark = mark;
      this.markedAt = now;
    }
    return this.utilization > this.threshold;
  }
}
