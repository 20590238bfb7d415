import type { Operation } from '@stellar/stellar-sdk';
import { availableNative, BASE_RESERVE, newAccount } from '../accounts.js';
import { opResult } from '../results-xdr.js';
import { baseAccount, stroops, type OpContext, type OpOutcome } from './context.js';
import { takeReserve } from './reserves.js';

const fail = (outcome: string): OpOutcome => ({ result: opResult('createAccount', outcome) });

export async function createAccount(op: Operation.CreateAccount, ctx: OpContext): Promise<OpOutcome> {
  const { store, ledger } = ctx;
  const dest = baseAccount(op.destination);
  const starting = stroops(op.startingBalance);
  if (starting < 0n || dest === ctx.source) return fail('Malformed');
  if (await store.getAccount(dest)) return fail('AlreadyExist');
  // A sponsored account's two base reserves are the sponsor's, so it may start with 0 XLM.
  const sponsored = ctx.sponsoring.has(dest);
  if (!sponsored && starting < 2n * BASE_RESERVE) return fail('LowReserve');
  const funder = (await store.getAccount(ctx.source))!;
  if (await availableNative(store, funder) < starting) return fail('Underfunded');
  await store.putAccount({ ...funder, balance: funder.balance - starting, lastModifiedLedger: ledger });
  await store.putAccount(newAccount(dest, starting, ledger, ctx.closeTime));
  if (sponsored) {
    const sponsor = await takeReserve(ctx, dest, 2, 0);
    if (sponsor === 'low_reserve') return fail('LowReserve');
    await store.putAccount({ ...(await store.getAccount(dest))!, sponsor });
    return { result: opResult('createAccount', 'Success'), ...(sponsor ? { sponsor } : {}) };
  }
  return { result: opResult('createAccount', 'Success') };
}
