import type { Response } from 'express';
import { applicationAuth } from '../http/context.js';
import type { Caller } from '../resources/funding-intents/service.js';

/** The calling application and environment, as the funding-intent routes build it. */
export function callerOf(res: Response): Caller {
  const context = applicationAuth(res);
  return { applicationId: context.application.id, environment: context.environment, settlementAddress: context.application.settlement_address };
}
