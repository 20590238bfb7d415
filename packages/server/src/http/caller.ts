import type { Response } from 'express';
import type { Caller } from '../domain/caller.js';
import { applicationAuth } from './context.js';

/** The calling application and environment, for routes that act for an application. */
export function caller(res: Response): Caller {
  const context = applicationAuth(res);
  return { applicationId: context.application.id, environment: context.environment, settlementAddress: context.application.settlement_address };
}
