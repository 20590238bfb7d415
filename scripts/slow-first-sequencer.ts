/**
 * The order `pnpm test` starts its files in: the ones that run longest first (child processes,
 * 1 s ledgers, a browser), then vitest's own order. With two workers, a minute-long file started
 * last runs alone at the end; vitest orders by the last run's durations only when it has them,
 * which a fresh clone (CI) never does, and otherwise by project name and file size.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Files that took 20 s or more in a run of the whole suite (`node scripts/vitest-run.mjs`), longest first. */
const SLOW = [
  'cluster/three-processes', 'crash/crash', 'pipeline/pay-at-once', 'over-the-wire/payment-flow', 'cluster/shared-database',
  'over-the-wire/standalone-crash', 'browser/dashboard-app', 'reliability/webhook-crash', 'webhooks/crash', 'startup',
  'browser/checkout', 'treasury/treasury-cli', 'pipeline/network-speed', 'reliability/faults',
];

const rank = (spec: TestSpecification) => {
  const index = SLOW.findIndex((name) => spec.moduleId.endsWith(`/${name}.test.ts`));
  return index === -1 ? SLOW.length : index;
};

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    // Array#sort is stable: among files of one rank, vitest's order stays
    return ordered.sort((a, b) => rank(a) - rank(b));
  }
}
