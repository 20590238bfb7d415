import type { Settler } from '../pipeline/settlement.js';
import type { PipelineIntentsRepo } from '../pipeline/intents-repo.js';
import type { SettlementRecord, SettlementsRepo } from '../records/settlements.js';
import { isoNow } from '../lib/time.js';
import type { JobSpec } from './loop.js';

type SettlementJob = { kind: 'open'; intentId: string } | { kind: 'run'; settlement: SettlementRecord };

const intentOf = (job: SettlementJob) => (job.kind === 'open' ? job.intentId : job.settlement.funding_intent_id);

/**
 * Confirmed intents get their settlement opened; open settlements are submitted and confirmed.
 * A job is keyed by its intent: opening creates the settlement before the next claim, so that
 * claim must skip it while this job still runs it.
 */
/**
 * `concurrency`: settlements run at once. Each waits a ledger for its transaction, so the treasury
 * can only fill its transactions (channels × items a ledger) with as many running.
 */
export function settlementJob(settler: Settler, intents: PipelineIntentsRepo, settlements: SettlementsRepo, concurrency = 1): JobSpec<SettlementJob> {
  return {
    name: 'settlement',
    concurrency,
    key: intentOf,
    claim: async (busy) => {
      const intent = await intents.nextToSettle(busy);
      if (intent) return { kind: 'open', intentId: intent.id };
      const settlement = await settlements.nextToRun(isoNow(), busy);
      return settlement ? { kind: 'run', settlement } : undefined;
    },
    run: async (job) => {
      if (job.kind === 'open') {
        const intent = await intents.byId(job.intentId);
        if (intent) await settler.run(await settler.open(intent));
        return;
      }
      await settler.run(job.settlement);
    },
    fail: async (job, _error, retryAt) => {
      const settlement = job.kind === 'run' ? job.settlement : await settlements.byIntent(job.intentId);
      if (settlement) await settler.retryLater(settlement, retryAt);
    },
    attempts: (job) => (job.kind === 'run' ? job.settlement.attempts : 0),
  };
}
