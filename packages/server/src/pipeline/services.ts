/** The pipeline's services for the route table and the server's start/stop. */
import type { ServiceDeps } from '../services.js';
import { LedgerService } from '../resources/ledger/service.js';
import { PaymentsService } from '../resources/payments/service.js';
import { RefundsService } from '../resources/refunds/service.js';
import { SettlementsService } from '../resources/settlements/service.js';
import { TestHelpersService } from '../resources/test-helpers/service.js';
import type { PaymentsReadModel } from '../resources/payments/read-model.js';
import type { FundingIntentsService } from '../resources/funding-intents/service.js';
import { createPipeline, pipelineSettings, type Pipeline } from './index.js';

export interface PipelineServices {
  pipeline: Pipeline;
  payments: PaymentsService;
  settlements: SettlementsService;
  ledger: LedgerService;
  refunds: RefundsService;
  testHelpers: TestHelpersService;
}

/** Intent access for the pipeline's services (the intents service is built beside them). */
export type IntentAccess = Pick<FundingIntentsService, 'load' | 'get'>;

export function createPipelineServices(deps: ServiceDeps) {
  const settings = { ...pipelineSettings({}), ...deps.pipeline };
  const pipeline = createPipeline({ db: deps.db, config: deps.config, logger: deps.logger, masterKey: deps.masterKey, publicBaseUrl: deps.publicBaseUrl, settings });
  const { repos } = pipeline;
  return {
    pipeline,
    deposits: pipeline.deposits,
    services(getIntents: () => FundingIntentsService, paymentViews: PaymentsReadModel): PipelineServices {
      const intents: IntentAccess = { load: (caller, id) => getIntents().load(caller, id), get: (caller, id) => getIntents().get(caller, id) };
      const payments = new PaymentsService(repos.payments, paymentViews, intents);
      const settlements = new SettlementsService(repos.settlements, intents);
      const refunds = new RefundsService({
        db: deps.db, repo: repos.refunds, payments: repos.payments, ledger: repos.ledger, fundingIntents: intents, intents: repos.intents, machine: pipeline.machine,
        events: pipeline.events, nudge: pipeline.nudge.refund,
      });
      const testHelpers = new TestHelpersService({
        fundingIntents: intents, tools: pipeline.tools, observer: pipeline.observer, depositKeys: pipeline.depositKeys, expirer: pipeline.expirer, settlements: repos.settlements,
      });
      return { pipeline, payments, settlements, ledger: new LedgerService(repos.ledger), refunds, testHelpers };
    },
  };
}
