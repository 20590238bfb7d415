import type { Operation } from '@stellar/stellar-sdk';
import { availableNative, BASE_RESERVE, newAccount } from '../accounts.js';
import { opResult } from '../results-xdr.js';
import { baseAccount, stroops, type OpContext, type OpOutcome } from './context.js';
import { takeReserve } from './reserves.js';

const fail = (outcome: string): OpOutcome => ({ result: opResult('createAccount', outcome) });

export function createAccount(op: Operation.CreateAccount, ctx: OpContext): OpOutcome {
  const { store, ledger } = ctx;
  const dest = baseAccount(op.destination);
  const starting = stroops(op.startingBalance);
  if (starting < 0n || dest === ctx.source) return fail('Malformed');
  if (store.getAccount(dest)) return fail('AlreadyExist');
  // A sponsored account's two base reserves are the sponsor's, so it may start with 0 XLM.
  const sponsored = ctx.sponsoring.has(dest);
  if (!sponsored && starting < 2n * BASE_RESERVE) return fail('LowReserve');
  const funder = store.getAccount(ctx.source)!;
  if (availableNative(store, funder) < starting) return fail('Underfunded');
  store.putAccount({ ...funder, balance: funder.balance - starting, lastModifiedLedger: ledger });
  store.putAccount(newAccount(dest, starting, ledger, ctx.closeTime));
  if (sponsored) {
    const sponsor = takeReserve(ctx, dest, 2, 0);
    if (sponsor === 'low_reserve') return fail('LowReserve');
    store.putAccount({ ...store.getAccount(dest)!, sponsor });
    return { result: opResult('createAccount', 'Success'), ...(sponsor ? { sponsor } : {}) };
  }
  return { result: opResult('createAccount', 'Success') };
}
