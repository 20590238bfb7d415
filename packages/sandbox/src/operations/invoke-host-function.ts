/**
 * invokeHostFunction, for calls of the built-in Stellar Asset Contracts (sac/): authorization
 * enforced, the call run, then its footprint and resources checked against the declared ones,
 * as stellar-core fails a call that reached outside them (the savepoint drops its writes).
 */
import { hash, type Operation, xdr } from '@stellar/stellar-sdk';
import { opResult } from '../results-xdr.js';
import { enforcingAuth } from '../sac/auth.js';
import { sacCall } from '../sac/call.js';
import { SacError } from '../sac/errors.js';
import { checkDeclared, usedResources } from '../sac/resources.js';
import { runSac } from '../sac/run.js';
import type { OpContext, OpOutcome } from './context.js';

const fail = (e: SacError): OpOutcome => ({ result: opResult('invokeHostFunction', e.resourceLimit ? 'ResourceLimitExceeded' : 'Trapped') });

export async function invokeHostFunction(op: Operation.InvokeHostFunction, ctx: OpContext): Promise<OpOutcome> {
  if (!ctx.soroban) return { result: opResult('invokeHostFunction', 'Malformed') };
  const { passphrase, resources } = ctx.soroban;
  const call = sacCall(op, passphrase);
  if (call instanceof SacError) return fail(call);
  try {
    const auth = enforcingAuth(call, { store: ctx.store, ledger: ctx.ledger, passphrase, source: ctx.source });
    const run = await runSac({ store: ctx.store, ledger: ctx.ledger, authorize: auth }, call);
    checkDeclared(resources, await usedResources(ctx.store, run.footprint, run.instructions), run.footprint);
    const preimage = new xdr.InvokeHostFunctionSuccessPreImage({ returnValue: run.retval, events: run.events });
    return {
      result: opResult('invokeHostFunction', 'Success', hash(Buffer.from(preimage.toXdr()))),
      invocation: { returnValue: run.retval, events: run.events },
    };
  } catch (e) {
    if (e instanceof SacError) return fail(e);
    throw e;
  }
}
