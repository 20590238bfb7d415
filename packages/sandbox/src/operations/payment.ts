import type { Operation } from '@stellar/stellar-sdk';
import { assetKey, fromSdkAsset } from '../shared/assets.js';
import { credit, debit, type BalanceError } from '../balances.js';
import { opResult } from '../results-xdr.js';
import { baseAccount, stroops, type OpContext, type OpOutcome } from './context.js';

const OUTCOME: Record<BalanceError, string> = {
  underfunded: 'Underfunded',
  src_no_trust: 'SrcNoTrust',
  no_trust: 'NoTrust',
  line_full: 'LineFull',
  no_destination: 'NoDestination',
};

const fail = (outcome: string): OpOutcome => ({ result: opResult('payment', outcome) });

export async function payment(op: Operation.Payment, ctx: OpContext): Promise<OpOutcome> {
  const { store, ledger } = ctx;
  const amount = stroops(op.amount);
  if (amount <= 0n) return fail('Malformed');
  const dest = baseAccount(op.destination);
  const asset = assetKey(fromSdkAsset(op.asset));
  // stellar-core's order: destination checks first, then the source's balance.
  const credited = await credit(store, dest, asset, amount, ledger);
  if (credited) return fail(OUTCOME[credited]);
  const debited = await debit(store, ctx.source, asset, amount, ledger);
  if (debited) return fail(OUTCOME[debited]);
  return { result: opResult('payment', 'Success'), sourceAmount: amount, destAmount: amount };
}

export { OUTCOME as BALANCE_OUTCOME };
