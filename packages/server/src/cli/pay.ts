import type { FundingIntent } from '@fundkit/sdk';
import { stringFlag, UsageError, type ParsedArgs } from './args.js';
import { waitFor, type CommandContext } from './context.js';

/** States in which an intent takes a payment; in any other, money sent to it is not applied. */
const PAYABLE = new Set(['CREATED', 'AWAITING_PAYMENT', 'PARTIALLY_FUNDED']);

/** States a payment passes through on its own; the CLI waits while the intent is in one. */
const MOVING = new Set(['PAYMENT_DETECTED', 'PAYMENT_CONFIRMED', 'ROUTING', 'SETTLING', 'SETTLED']);

/**
 * Polls the intent, printing each status it passes, until it rests (CREDITED, PARTIALLY_FUNDED,
 * FAILED…) with the payment in `transactionHash` recorded. The service observes a payment after
 * the ledger holds it (a real network's stream, or a server other than the one that answered):
 * an intent still AWAITING_PAYMENT right after paying has not seen it yet.
 */
export async function followIntent(ctx: CommandContext, id: string, from: string, transactionHash: string): Promise<FundingIntent> {
  await waitFor(ctx, `the payment in transaction ${transactionHash.slice(0, 12)}… to be observed`, async () =>
    (await ctx.fk.fundingIntents.payments(id)).data.find((p) => p.transaction_hash === transactionHash));
  let last = from;
  return waitFor(ctx, `intent ${id} to settle`, async () => {
    const intent = await ctx.fk.fundingIntents.retrieve(id);
    if (intent.status !== last) ctx.say(`  ${last} → ${intent.status}`);
    last = intent.status;
    return MOVING.has(intent.status) ? undefined : intent;
  });
}

/** `fundkit pay <intent> --amount 25 [--asset USDC] [--memo text]`: a real sandbox payment by a funded payer. */
export async function pay(ctx: CommandContext, args: ParsedArgs): Promise<number> {
  const [id] = args.positionals;
  const amount = stringFlag(args, 'amount');
  if (!id || !amount) throw new UsageError('usage: fundkit pay <funding_intent_id> --amount 25 [--asset USDC] [--memo text] [--force]');
  const before = await ctx.fk.fundingIntents.retrieve(id);
  if (!PAYABLE.has(before.status) && args.flags.force !== true) {
    ctx.io.stderr(`fundkit: intent ${id} is ${before.status}: it takes no more payments. A payment now would rest UNAPPLIED on its deposit account `
      + '(refundable, never credited). Pay a new intent (POST /v1/funding-intents, or `pnpm fundkit trigger payment.completed`), '
      + 'or pass --force to send it anyway.\n');
    return 1;
  }
  const asset = stringFlag(args, 'asset') ?? before.requirement.asset;
  const memo = stringFlag(args, 'memo');
  ctx.say(`Paying ${amount} ${asset} to ${id} from a funded sandbox account…`);
  const payment = await ctx.fk.testHelpers.pay(id, { amount, asset, ...(memo ? { memo } : {}) });
  ctx.say(`  submitted: transaction ${payment.transaction_hash} in ledger ${payment.ledger}`);
  const intent = await followIntent(ctx, id, before.status, payment.transaction_hash);
  ctx.say(`Intent ${id}: ${intent.status}, received ${intent.received_amount} of ${intent.requirement.amount} ${intent.requirement.asset}`);
  if (ctx.json) ctx.print({ payment, funding_intent: { id: intent.id, status: intent.status, received_amount: intent.received_amount } });
  return 0;
}
