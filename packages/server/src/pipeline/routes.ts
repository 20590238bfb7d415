import type { RouteDef } from '../http/route.js';
import { ledgerRoutes } from '../resources/ledger/routes.js';
import { paymentRoutes } from '../resources/payments/routes.js';
import { refundRoutes } from '../resources/refunds/routes.js';
import { settlementRoutes } from '../resources/settlements/routes.js';
import { testHelperRoutes } from '../resources/test-helpers/routes.js';
import type { PipelineServices } from './services.js';

/** The pipeline's resources: one line in the app's route table. */
export function pipelineRoutes(s: PipelineServices): RouteDef[] {
  return [...paymentRoutes(s.payments), ...settlementRoutes(s.settlements), ...ledgerRoutes(s.ledger), ...refundRoutes(s.refunds), ...testHelperRoutes(s.testHelpers)];
}
