import type { FundingIntent, WebhookEvent } from '@fundkit/sdk';
import { UsageError, type ParsedArgs } from './args.js';
import { waitFor, type CommandContext } from './context.js';
import { followIntent } from './pay.js';

type Scenario = 'paid' | 'expired' | 'settlement_failed' | 'refunded';

/** Which real sandbox story produces each event. */
const SCENARIOS: Record<string, Scenario> = {
  'payment.pending': 'paid', 'payment.processing': 'paid', 'payment.completed': 'paid',
  'payout.initiated': 'paid', 'payout.completed': 'paid', 'invoice.paid': 'paid',
  'payment.failed': 'expired', 'invoice.overdue': 'expired',
  'payout.failed': 'settlement_failed',
  'refund.created': 'refunded', 'refund.completed': 'refunded',
};

async function run(ctx: CommandContext, scenario: Scenario): Promise<FundingIntent> {
  const amount = '25.00';
  const intent = await ctx.fk.fundingIntents.create({ amount, asset: 'USDC', reference: `trigger_${Date.now()}`, metadata: { source: 'fundkit trigger' } });
  ctx.say(`  created funding intent ${intent.id} (${amount} USDC)`);
  if (scenario === 'expired') {
    await ctx.fk.testHelpers.expire(intent.id);
    ctx.say('  expired it (test helper)');
    return ctx.fk.fundingIntents.retrieve(intent.id);
  }
  if (scenario === 'settlement_failed') {
    await ctx.fk.testHelpers.failSettlement(intent.id);
    ctx.say('  made its next settlement fail (test helper)');
  }
  // an overpayment leaves a surplus that can be refunded while the intent is credited
  const paid = scenario === 'refunded' ? '30' : '25';
  const payment = await ctx.fk.testHelpers.pay(intent.id, { amount: paid, asset: 'USDC' });
  ctx.say(`  paid ${paid} USDC from a sandbox payer (transaction ${payment.transaction_hash.slice(0, 12)}…)`);
  const settled = await followIntent(ctx, intent.id, intent.status, payment.transaction_hash);
  if (scenario === 'refunded') {
    const [first] = (await ctx.fk.fundingIntents.payments(intent.id)).data;
    if (!first) throw new Error(`no payment recorded for ${intent.id}`);
    const refund = await ctx.fk.refunds.create(intent.id, first.id, { reason: 'OVERPAYMENT' });
    ctx.say(`  refunded the 5 USDC surplus (${refund.id})`);
  }
  return settled;
}

/** `fundkit trigger <event>`: real sandbox objects whose lifecycle emits the event; waits until it exists. */
export async function trigger(ctx: CommandContext, args: ParsedArgs): Promise<number> {
  const [type] = args.positionals;
  const scenario = type ? SCENARIOS[type] : undefined;
  if (!type || !scenario) throw new UsageError(`usage: fundkit trigger <event>\n  events: ${Object.keys(SCENARIOS).join(', ')}`);
  ctx.say(`Triggering ${type}…`);
  const intent = await run(ctx, scenario);
  const event = await waitFor<WebhookEvent>(ctx, `a ${type} event`, async () => {
    const page = await ctx.fk.events.list({ type: type as WebhookEvent['type'], limit: 20 });
    return page.data.find((e) => JSON.stringify(e.data).includes(intent.id));
  });
  ctx.say(`Event ${event.id} (${event.type}) created; endpoints subscribed to it receive it now.`);
  if (ctx.json) ctx.print({ event, funding_intent: { id: intent.id, status: intent.status } });
  return 0;
}
