/**
 * The route table's services over the pipeline's work: payments, settlements, ledger, refunds,
 * test helpers, unattributed payments. Built here, beside services.ts and above both rooms: the
 * resources' services use the pipeline, and the pipeline never builds (or imports) a resource.
 */
import type { FundingIntentRecord } from './records/funding-intents.js';
import type { IntentAccess } from './resources/funding-intents/service.js';
import { LedgerService } from './resources/ledger/service.js';
import type { PaymentsReadModel } from './resources/payments/read-model.js';
import type { PaymentRecord } from './records/payments.js';
import { PaymentsService } from './resources/payments/service.js';
import { RefundsService, type Conversions } from './resources/refunds/service.js';
import { SettlementsService } from './resources/settlements/service.js';
import { TestHelpersService } from './resources/test-helpers/service.js';
import type { Pipeline } from './pipeline/index.js';
import { UnattributedPaymentsService } from './resources/unattributed-payments/service.js';
import type { Sql } from './db/sql.js';

export interface PipelineServices {
  pipeline: Pipeline;
  payments: PaymentsService;
  settlements: SettlementsService;
  ledger: LedgerService;
  refunds: RefundsService;
  testHelpers: TestHelpersService;
  /** money in a collection account no muxed intent claims (operator) */
  unattributed: UnattributedPaymentsService;
}

export interface PipelineServiceDeps {
  sql: Sql;
  pipeline: Pipeline;
  intents: IntentAccess;
  paymentViews: PaymentsReadModel;
  /** ROUTE_REMAINDER: what a conversion left of a payment stays refundable from the deposit account */
  routeRemainder: (intent: FundingIntentRecord, payment: PaymentRecord) => Promise<bigint>;
  /** a stalled conversion (FAILED/PAUSED) can be given up so its source funds go back to the payer */
  conversions: Conversions;
}

export function createPipelineServices(deps: PipelineServiceDeps): PipelineServices {
  const { pipeline, intents } = deps;
  const { repos } = pipeline;
  const refunds = new RefundsService({
    sql: deps.sql, repo: repos.refunds, payments: repos.payments, ledger: repos.ledger, fundingIntents: intents, intents: repos.intents, machine: pipeline.machine,
    events: pipeline.events, nudge: pipeline.nudge.refund, routeRemainder: deps.routeRemainder, conversions: deps.conversions,
    payContracts: typeof pipeline.stellar?.network.prepareTransaction === 'function',
  });
  const testHelpers = new TestHelpersService({
    fundingIntents: intents, tools: pipeline.tools, depositKeys: pipeline.depositKeys, expirer: pipeline.expirer, settlements: repos.settlements,
  });
  return {
    pipeline,
    payments: new PaymentsService(repos.payments, deps.paymentViews, intents),
    settlements: new SettlementsService(repos.settlements, intents),
    ledger: new LedgerService(repos.ledger),
    refunds,
    testHelpers,
    unattributed: new UnattributedPaymentsService({ repo: pipeline.collectionRepo, signer: () => pipeline.signer, secretsKey: pipeline.depositSecretsKey }),
  };
}
