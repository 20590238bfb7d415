/** The pipeline's services for the route table and the server's start/stop. */
import type { ServiceDeps } from '../services.js';
import { LedgerService } from '../resources/ledger/service.js';
import { PaymentsService } from '../resources/payments/service.js';
import { RefundsService } from '../resources/refunds/service.js';
import { SettlementsService } from '../resources/settlements/service.js';
import { TestHelpersService } from '../resources/test-helpers/service.js';
import type { FundingIntentRecord } from '../resources/funding-intents/repo.js';
import type { FundingIntentsService } from '../resources/funding-intents/service.js';
import { createPipeline, pipelineSettings, type Pipeline } from './index.js';
import { intentProtocol } from './protocol.js';

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
    deposits: pipeline.deposits,
    services(getIntents: () => FundingIntentsService): PipelineServices {
      const intents: IntentAccess = { load: (caller, id) => getIntents().load(caller, id), get: (caller, id) => getIntents().get(caller, id) };
      const payments = new PaymentsService(repos.payments, repos.fundingIntents, repos.refunds, intents);
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

/** The intent's pipeline fields: latest applied payment, settlement, protocol record, failure. */
export function intentExtras(services: PipelineServices) {
  return (intent: FundingIntentRecord) => {
    const { repos } = services.pipeline;
    const settlement = repos.settlements.byIntent(intent.id);
    const account = intent.deposit_account_id ? repos.fundingIntents.findDepositAccount(intent.deposit_account_id) : undefined;
    const registration = account ? repos.watch.find(account.address)?.provision_tx_hash ?? null : null;
    const failure = intent.status === 'FAILED' || intent.status === 'REFUND_PENDING' || intent.status === 'REFUNDED' ? failureOf(settlement) : null;
    return {
      payment: services.payments.latestApplied(intent.id),
      settlement: settlement ? services.settlements.forIntent(intent.id) : null,
      protocol: intentProtocol(intent, registration, settlement),
      failure,
    };
  };
}

function failureOf(settlement: { failure_code: string | null; failure_message: string | null } | undefined) {
  return settlement?.failure_code ? { code: 'SETTLEMENT_FAILED', message: `${settlement.failure_message ?? ''} (${settlement.failure_code})` } : null;
}
