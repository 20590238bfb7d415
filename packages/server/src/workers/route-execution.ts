/** The route-execution job for the worker loop: start executions whose funds are confirmed, run started ones. */
import { isoNow } from '../lib/time.js';
import type { JobSpec } from './loop.js';
import type { ExecutionRecord, ExecutionsRepo } from '../records/route-executions.js';
import type { RouteRunner } from '../resources/route-executions/runner.js';

type Job = { kind: 'start' | 'run'; execution: ExecutionRecord };

export function routeExecutionJob(runner: RouteRunner, executions: ExecutionsRepo, housekeeping: () => Promise<void>): JobSpec<Job> {
  return {
    name: 'route-execution',
    claim: async () => {
      await housekeeping();
      const at = isoNow();
      await executions.markAwaitingFunds(at);
      const waiting = await executions.nextToStart(at);
      if (waiting) return { kind: 'start', execution: waiting };
      const due = await executions.nextToRun(at);
      return due ? { kind: 'run', execution: due } : undefined;
    },
    run: async (job) => {
      const e = job.kind === 'start' ? await runner.start(job.execution) : job.execution;
      if (e.status === 'PENDING') await executions.update(e.id, { status: 'RUNNING', started_at: e.started_at ?? isoNow(), updated_at: isoNow() });
      await runner.run((await executions.findById(e.id))!);
    },
    fail: async (job, _error, retryAt) => runner.retryLater((await executions.findById(job.execution.id))!, retryAt),
    attempts: (job) => job.execution.attempts,
  };
}
