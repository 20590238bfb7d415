import type { Operation } from '@stellar/stellar-sdk';
import { opResult } from '../results-xdr.js';
import type { OpContext, OpOutcome } from './context.js';

/** The op source will pay the reserves of entries `sponsoredId` creates until it ends. */
export function beginSponsoring(op: Operation.BeginSponsoringFutureReserves, ctx: OpContext): OpOutcome {
  const kind = 'beginSponsoringFutureReserves';
  const sponsored = op.sponsoredId;
  if (sponsored === ctx.source) return { result: opResult(kind, 'Malformed') };
  if (ctx.sponsoring.has(sponsored)) return { result: opResult(kind, 'AlreadySponsored') };
  const sponsors = new Set(ctx.sponsoring.values());
  if (ctx.sponsoring.has(ctx.source) || sponsors.has(sponsored)) return { result: opResult(kind, 'Recursive') };
  ctx.sponsoring.set(sponsored, ctx.source);
  return { result: opResult(kind, 'Success') };
}

export function endSponsoring(_op: Operation.EndSponsoringFutureReserves, ctx: OpContext): OpOutcome {
  const kind = 'endSponsoringFutureReserves';
  if (!ctx.sponsoring.delete(ctx.source)) return { result: opResult(kind, 'NotSponsored') };
  return { result: opResult(kind, 'Success') };
}
