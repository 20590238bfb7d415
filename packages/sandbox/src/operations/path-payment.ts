import { Keypair, xdr, type Operation } from '@stellar/stellar-sdk';
import { assetKey, fromSdkAsset } from '../shared/assets.js';
import { credit, debit } from '../balances.js';
import { claimAtoms, settleCross } from '../orderbook.js';
import { planReceive, planSend, type Plan } from '../paths.js';
import { opResult } from '../results-xdr.js';
import { baseAccount, stroops, type OpContext, type OpOutcome } from './context.js';
import { BALANCE_OUTCOME } from './payment.js';

type Kind = 'pathPaymentStrictReceive' | 'pathPaymentStrictSend';

const PLAN_OUTCOME = { too_few_offers: 'TooFewOffers', cross_self: 'OfferCrossSelf' } as const;

function fail(kind: Kind, outcome: string): OpOutcome {
  return { result: opResult(kind, outcome) };
}

function success(kind: Kind, op: { asset: Operation.PathPaymentStrictSend['destAsset'] }, dest: string, plan: Plan): OpOutcome {
  const Success = kind === 'pathPaymentStrictReceive'
    ? xdr.PathPaymentStrictReceiveResultSuccess
    : xdr.PathPaymentStrictSendResultSuccess;
  const last = new xdr.SimplePaymentResult({
    destination: Keypair.fromPublicKey(dest).xdrAccountId(),
    asset: op.asset.toXdrObject(),
    amount: xdr.Int64.fromString(plan.destAmount.toString()),
  });
  const value = new Success({ offers: claimAtoms(plan.crosses), last });
  return { result: opResult(kind, 'Success', value), sourceAmount: plan.sourceAmount, destAmount: plan.destAmount };
}

function route(op: Operation.PathPaymentStrictReceive | Operation.PathPaymentStrictSend): string[] {
  return [op.sendAsset, ...op.path, op.destAsset].map((a) => assetKey(fromSdkAsset(a)));
}

export async function pathPaymentStrictReceive(op: Operation.PathPaymentStrictReceive, ctx: OpContext): Promise<OpOutcome> {
  const kind = 'pathPaymentStrictReceive';
  const { store, ledger } = ctx;
  const [destAmount, sendMax] = [stroops(op.destAmount), stroops(op.sendMax)];
  if (destAmount <= 0n || sendMax <= 0n) return fail(kind, 'Malformed');
  const dest = baseAccount(op.destination);
  const assets = route(op);
  // stellar-core's order: credit the destination, cross the book, then charge the source.
  const credited = await credit(store, dest, assets.at(-1)!, destAmount, ledger);
  if (credited) return fail(kind, BALANCE_OUTCOME[credited]);
  const plan = await planReceive(store, assets, destAmount, ctx.source);
  if (typeof plan === 'string') return fail(kind, PLAN_OUTCOME[plan]);
  if (plan.sourceAmount > sendMax) return fail(kind, 'OverSendmax');
  const debited = await debit(store, ctx.source, assets[0]!, plan.sourceAmount, ledger);
  if (debited) return fail(kind, BALANCE_OUTCOME[debited]);
  for (const cross of plan.crosses) await settleCross(store, cross, ledger);
  return success(kind, { asset: op.destAsset }, dest, plan);
}

export async function pathPaymentStrictSend(op: Operation.PathPaymentStrictSend, ctx: OpContext): Promise<OpOutcome> {
  const kind = 'pathPaymentStrictSend';
  const { store, ledger } = ctx;
  const [sendAmount, destMin] = [stroops(op.sendAmount), stroops(op.destMin)];
  if (sendAmount <= 0n || destMin <= 0n) return fail(kind, 'Malformed');
  const dest = baseAccount(op.destination);
  if (!await store.getAccount(dest)) return fail(kind, 'NoDestination');
  const assets = route(op);
  // stellar-core's order: charge the source, cross the book, check destMin, credit the destination.
  const debited = await debit(store, ctx.source, assets[0]!, sendAmount, ledger);
  if (debited) return fail(kind, BALANCE_OUTCOME[debited]);
  const plan = await planSend(store, assets, sendAmount, ctx.source);
  if (typeof plan === 'string') return fail(kind, PLAN_OUTCOME[plan]);
  if (plan.destAmount < destMin) return fail(kind, 'UnderDestmin');
  for (const cross of plan.crosses) await settleCross(store, cross, ledger);
  const credited = await credit(store, dest, assets.at(-1)!, plan.destAmount, ledger);
  if (credited) return fail(kind, BALANCE_OUTCOME[credited]);
  return success(kind, { asset: op.destAsset }, dest, plan);
}
