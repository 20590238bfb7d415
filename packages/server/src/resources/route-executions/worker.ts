/** The route-execution job for the worker loop: start executions whose funds are confirmed, run started ones. */
import { isoNow } from '../../lib/time.js';
import type { JobSpec } from '../../workers/loop.js';
import type { ExecutionRecord, ExecutionsRepo } from './repo.js';
import type { RouteRunner } from './runner.js';

type Job = { kind: 'start' | 'run'; execution: ExecutionRecord };

export function routeExecutionJob(runner: RouteRunner, executions: ExecutionsRepo, housekeeping: () => void): JobSpec<Job> {
  return {
    name: 'route-execution',
    claim: () => {
      housekeeping();
      const at = isoNow();
      executions.markAwaitingFunds(at);
      const waiting = executions.nextToStart(at);
      if (waiting) return { kind: 'start', execution: waiting };
      const due = executions.nextToRun(at);
      return due ? { kind: 'run', execution: due } : undefined;
    },
    run: async (job) => {
      const e = job.kind === 'start' ? runner.start(job.execution) : job.execution;
      if (e.status === 'PENDING') executions.update(e.id, { status: 'RUNNING', started_at: e.started_at ?? isoNow(), updated_at: isoNow() });
      await runner.run(executions.findById(e.id)!);
    },
    fail: (job, _error, retryAt) => runner.retryLater(executions.findById(job.execution.id)!, retryAt),
    attempts: (job) => job.execution.attempts,
  };
}
